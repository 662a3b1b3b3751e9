using Shop.Domain;
using Shop.Infrastructure;

namespace Shop.Services;

/// <summary>Places and pays orders through an injected <see cref="IOrderRepository"/>.</summary>
public sealed class OrderService : IDisposable
{
    private readonly IOrderRepository _repository;
    private readonly StatisticsCollector _statistics;

    public OrderService(IOrderRepository repository)
    {
        _repository = repository;
        _statistics = new StatisticsCollector(repository);
    }

    /// <summary>Totals over every order saved through this service's repository.</summary>
    public OrderStatistics Statistics => _statistics.Current;

    /// <summary>Saves a new order and returns it.</summary>
    public Order Place(Order order, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        _repository.Save(order);
        return order;
    }

    /// <summary>Marks an order as paid; null when it does not exist.</summary>
    public Order? Pay(Guid id)
    {
        var order = _repository.Get(id);
        if (order is null)
        {
            return null;
        }

        var paid = order.MarkPaid();
        _repository.Save(paid);
        return paid;
    }

    /// <summary>Deletes an order; false when it did not exist.</summary>
    public bool Cancel(Guid id) => _repository.Delete(id);

    public void Dispose() => _statistics.Dispose();
}
