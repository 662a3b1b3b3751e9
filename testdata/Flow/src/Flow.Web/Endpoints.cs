using Flow.Core;

namespace Flow.Web;

public static class CatalogEndpoints
{
    public static Task<List<CatalogItem>> List(ICatalogService catalog, CancellationToken cancellationToken) =>
        catalog.ListAsync(cancellationToken);
}

public sealed record CreateOrderRequest(string Buyer, int ItemId);

public static class OrderEndpoints
{
    public static async Task<int> Create(IMediator mediator, CreateOrderRequest body, CancellationToken cancellationToken)
    {
        var id = await mediator.Send(new CreateOrderCommand(body.Buyer, body.ItemId), cancellationToken);
        return id;
    }
}
