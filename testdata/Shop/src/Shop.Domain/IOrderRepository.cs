namespace Shop.Domain;

/// <summary>Stores and retrieves orders.</summary>
public interface IOrderRepository
{
    /// <summary>Raised after an order has been saved.</summary>
    event EventHandler<OrderSavedEventArgs>? Saved;

    /// <summary>The number of stored orders.</summary>
    int Count { get; }

    /// <summary>Finds an order by id, or returns null.</summary>
    Order? Get(Guid id);

    /// <summary>Inserts or replaces an order.</summary>
    void Save(Order order);

    /// <summary>Removes an order; false when it did not exist.</summary>
    bool Delete(Guid id);
}

/// <summary>Event data for <see cref="IOrderRepository.Saved"/>.</summary>
public sealed class OrderSavedEventArgs(Order order) : EventArgs
{
    public Order Order { get; } = order;
}
