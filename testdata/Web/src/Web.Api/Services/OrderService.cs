using Web.Api.Data;
using Web.Api.Infrastructure;

namespace Web.Api.Services;

public sealed class OrderService : IOrderService
{
    private readonly IOrderStore _store;
    private readonly ILogger<OrderService> _logger;
    private readonly PriceCalculator _prices;

    public OrderService(IOrderStore store, ILogger<OrderService> logger, PriceCalculator prices)
    {
        _store = store ?? throw new ArgumentNullException(nameof(store));
        _logger = logger;
        _prices = prices;
    }

    public async Task<Order> GetOrderAsync(int id, CancellationToken cancellationToken)
    {
        _logger.LogDebug("Loading order {OrderId}", id);
        var order = await _store.FindAsync(id, cancellationToken);
        if (order is null)
        {
            _logger.LogWarning("Order {OrderId} not found", id);
            throw new KeyNotFoundException($"order {id}");
        }
        return order;
    }

    public async Task<int> PlaceOrderAsync(Order order, CancellationToken cancellationToken)
    {
        if (order.Total < 0) throw new InvalidOperationException("negative total");
        order.Total = _prices.WithTax(order.Total);
        try
        {
            var id = await _store.SaveAsync(order, cancellationToken);
            _logger.Log(LogLevel.Information, "Placed order {OrderId}", id);
            Log.OrderPlaced(_logger, id);
            return id;
        }
        catch (TimeoutException ex)
        {
            _logger.LogError(ex, "Saving order for {Customer} timed out", order.CustomerId);
            throw;
        }
        catch
        {
            _logger.LogCritical("Unexpected failure");
            throw;
        }
    }
}
