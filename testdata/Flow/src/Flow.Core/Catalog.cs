using Microsoft.Extensions.Configuration;

namespace Flow.Core;

public sealed class CatalogItem
{
    public int Id { get; set; }
    public string Name { get; set; } = "";
    public decimal Price { get; set; }
}

public sealed class Order
{
    public int Id { get; set; }
    public string Buyer { get; set; } = "";
    public int ItemId { get; set; }
}

public interface IRepository<T> where T : class
{
    Task<List<T>> ListAsync(CancellationToken cancellationToken);
    Task AddAsync(T entity, CancellationToken cancellationToken);
}

public interface ICatalogService
{
    Task<List<CatalogItem>> ListAsync(CancellationToken cancellationToken);
}

public class CatalogService : ICatalogService
{
    private readonly IRepository<CatalogItem> _items;
    private readonly int _pageSize;

    public CatalogService(IRepository<CatalogItem> items, IConfiguration configuration)
    {
        _items = items;
        _pageSize = configuration.GetValue<int>("Catalog:PageSize");
    }

    public async Task<List<CatalogItem>> ListAsync(CancellationToken cancellationToken)
    {
        var all = await _items.ListAsync(cancellationToken);
        return all.Where(i => i.Price > 0).OrderBy(i => i.Name).Take(_pageSize).ToList();
    }
}

/// <summary>Derives from CatalogService: its constructor calls `base(...)`.</summary>
public sealed class CachedCatalogService : CatalogService
{
    public CachedCatalogService(IRepository<CatalogItem> items, IConfiguration configuration) : base(items, configuration)
    {
    }
}
