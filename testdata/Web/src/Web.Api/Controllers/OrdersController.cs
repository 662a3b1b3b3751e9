using Microsoft.AspNetCore.Mvc;
using Web.Api.Data;
using Web.Api.Services;

namespace Web.Api.Controllers;

[ApiController]
[Route("api/[controller]")]
public sealed class OrdersController : ControllerBase
{
    private readonly IOrderService _orders;

    public OrdersController(IOrderService orders)
    {
        _orders = orders;
    }

    [HttpGet("{id:int}")]
    public async Task<ActionResult<Order>> Get(int id, CancellationToken cancellationToken) =>
        await _orders.GetOrderAsync(id, cancellationToken);

    [HttpPost]
    public async Task<ActionResult<int>> Create(Order order, CancellationToken cancellationToken) =>
        await _orders.PlaceOrderAsync(order, cancellationToken);

    [HttpGet("[action]")]
    public IActionResult SummaryAsync() => Ok("summary");

    [Route("search/{term}")]
    public IActionResult Search(string term) => Ok(term);

    // No HTTP attribute and no [Route]: served at the controller's route, api/Orders, for any method.
    public IActionResult Orphan() => Ok();
}
