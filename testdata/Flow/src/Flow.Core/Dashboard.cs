namespace Flow.Core;

// SimplCommerce's WorkContext and CartService both call IRepository<T>.Query, with User and with CartItem: a trace
// node shows its first caller, and must show that caller's type arguments, not the other's.
public sealed class CatalogReader(IRepository<CatalogItem> items)
{
    public Task<List<CatalogItem>> ReadAsync(CancellationToken cancellationToken) => items.ListAsync(cancellationToken);
}

public static class Dashboard
{
    public static async Task<int> CountAsync(IRepository<Order> orders, CatalogReader reader,
        CancellationToken cancellationToken)
    {
        var read = await reader.ReadAsync(cancellationToken);
        var all = await orders.ListAsync(cancellationToken);
        return read.Count + all.Count;
    }
}
