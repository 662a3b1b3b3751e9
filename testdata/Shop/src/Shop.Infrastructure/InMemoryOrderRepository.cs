using Shop.Domain;

namespace Shop.Infrastructure;

/// <summary>An <see cref="IOrderRepository"/> kept in memory, for tests and demos.</summary>
public class InMemoryOrderRepository : IOrderRepository
{
    private readonly Repository<Order> _store = new();

    public event EventHandler<OrderSavedEventArgs>? Saved;

    public int Count => _store.Count;

    public Order? Get(Guid id) => _store.Find(o => o.Id == id);

    /// <summary>Looks an order up without allocating on a miss.</summary>
    public bool TryGet(Guid id, out Order? order)
    {
        order = Get(id);
        return order is not null;
    }

    public void Save(Order order)
    {
        if (TryGet(order.Id, out var existing) && existing is not null)
        {
            _store.Remove(existing);
        }

        _store.Add(order);
        Saved?.Invoke(this, new OrderSavedEventArgs(order));
    }

    /// <summary>Explicit implementation: deleting is only reachable through the interface.</summary>
    bool IOrderRepository.Delete(Guid id)
    {
        var order = Get(id);
        return order is not null && _store.Remove(order);
    }
}
