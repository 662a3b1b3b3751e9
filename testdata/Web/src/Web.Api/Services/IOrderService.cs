using Web.Api.Data;

namespace Web.Api.Services;

public interface IOrderService
{
    Task<Order> GetOrderAsync(int id, CancellationToken cancellationToken);
    Task<int> PlaceOrderAsync(Order order, CancellationToken cancellationToken);
}
