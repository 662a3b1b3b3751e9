using MassTransit;
using Messaging.Contracts;
using Microsoft.AspNetCore.Mvc;

namespace Messaging.Controllers;

[ApiController]
[Route("[controller]")]
public class OrderController(IRequestClient<SubmitOrder> submitOrder, IRequestClient<CheckOrder> checkOrder,
    ISendEndpointProvider sendEndpointProvider, IPublishEndpoint publishEndpoint) : ControllerBase
{
    [HttpPost]
    public async Task<IActionResult> Post(Guid id, string customerNumber)
    {
        var response = await submitOrder.GetResponse<OrderSubmissionAccepted>(new { OrderId = id, CustomerNumber = customerNumber });
        return Accepted(response.Message);
    }

    [HttpGet]
    public async Task<IActionResult> Get(Guid id)
    {
        var response = await checkOrder.GetResponse<OrderStatus>(new { OrderId = id });
        return Ok(response.Message);
    }

    [HttpPut]
    public async Task<IActionResult> Put(Guid id)
    {
        var endpoint = await sendEndpointProvider.GetSendEndpoint(new Uri("queue:fulfill-order"));
        await endpoint.Send<FulfillOrder>(new { OrderId = id });
        return Accepted();
    }

    [HttpPatch]
    public async Task<IActionResult> Patch(Guid id)
    {
        await publishEndpoint.Publish<OrderAccepted>(new { OrderId = id });
        return Accepted();
    }

    [HttpDelete]
    public async Task<IActionResult> Delete(Guid id)
    {
        await publishEndpoint.Publish<OrderArchived>(new { OrderId = id });
        return Ok();
    }
}
