using FastEndpoints;

namespace FastEp.Api.Orders;

/// <summary>No request type: the handler takes only the cancellation token.</summary>
public sealed class ListOrders : EndpointWithoutRequest<List<OrderResponse>>
{
    public override void Configure()
    {
        Get("/orders");
        AllowAnonymous();
    }

    public override async Task HandleAsync(CancellationToken ct) =>
        await Send.OkAsync([new OrderResponse(1, "open")], ct);
}
