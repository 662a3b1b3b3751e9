using System.Data.Common;
using Dapper;
using Microsoft.EntityFrameworkCore;
using Web.Api.Data;

namespace Web.Api.Services;

/// <summary>The IOrderStore registered in DI: EF Core for reads, Dapper and raw ADO.NET for the rest.</summary>
public sealed class SqlOrderStore : IOrderStore
{
    private const string PurgeSql = "DELETE FROM [ops].[audit_log] WHERE CreatedAt < @cutoff";
    private readonly ShopDbContext _db;

    public SqlOrderStore(ShopDbContext db)
    {
        _db = db;
    }

    public Task<Order?> FindAsync(int id, CancellationToken cancellationToken) =>
        _db.Orders.FromSqlRaw("SELECT * FROM orders WHERE Id = {0}", id).FirstOrDefaultAsync(cancellationToken);

    public async Task<int> SaveAsync(Order order, CancellationToken cancellationToken)
    {
        var connection = _db.Database.GetDbConnection();
        var existing = await connection.QueryAsync<int>(
            "SELECT o.Id FROM dbo.orders o INNER JOIN crm.customers c ON c.Id = o.CustomerId WHERE c.Id = @CustomerId",
            new { order.CustomerId });
        if (existing.Any()) return existing.First();
        return await connection.ExecuteAsync("INSERT INTO orders (CustomerId, Total) VALUES (@CustomerId, @Total)", order);
    }

    public async Task<int> PurgeAsync(int olderThanDays)
    {
        await _db.Database.ExecuteSqlRawAsync(PurgeSql, DateTime.UtcNow.AddDays(-olderThanDays));
        using DbCommand command = _db.Database.GetDbConnection().CreateCommand();
        command.CommandText = "UPDATE \"orders\" SET Total = 0 WHERE Total < 0";
        return await command.ExecuteNonQueryAsync();
    }
}
