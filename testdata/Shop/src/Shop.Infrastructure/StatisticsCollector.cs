using Shop.Domain;

namespace Shop.Infrastructure;

/// <summary>Keeps <see cref="OrderStatistics"/> current from a repository's Saved event.</summary>
public sealed class StatisticsCollector : IDisposable
{
    private readonly IOrderRepository _repository;
    private readonly OrderStatistics _stats = new();

    public StatisticsCollector(IOrderRepository repository)
    {
        _repository = repository;
        _repository.Saved += OnSaved;
    }

    public OrderStatistics Current => _stats;

    public void Dispose() => _repository.Saved -= OnSaved;

    private void OnSaved(object? sender, OrderSavedEventArgs e)
    {
        _stats.Count++;
        _stats.Total += e.Order.Total;
        if (e.Order.Total > _stats.Largest)
        {
            _stats.Largest = e.Order.Total;
        }
    }
}
