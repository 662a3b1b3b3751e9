using Web.Api.Data;

namespace Web.Api.Services;

/// <summary>Persistence of orders; registered in DI as SqlOrderStore.</summary>
public interface IOrderStore
{
    Task<Order?> FindAsync(int id, CancellationToken cancellationToken);
    Task<int> SaveAsync(Order order, CancellationToken cancellationToken);
    Task<int> PurgeAsync(int olderThanDays);
}
