using System.Data;
using Dapper;
using Microsoft.EntityFrameworkCore;
using Web.Api.Data;

namespace Web.Api.Services;

/// <summary>Stored procedures, as bitwarden/server runs them: the command text is the procedure's name
/// (CommandType.StoredProcedure), with a schema that may be known only at run time; or `EXEC name` in raw SQL.</summary>
public sealed class OrderReports(ShopDbContext db)
{
    private string Schema { get; } = "reports";

    public Task<IEnumerable<int>> TopCustomersAsync() =>
        db.Database.GetDbConnection().QueryAsync<int>("[dbo].[Report_TopCustomers]",
            commandType: CommandType.StoredProcedure);

    public Task<int> ArchiveAsync(int days) =>
        db.Database.GetDbConnection().ExecuteAsync($"[{Schema}].[Orders_Archive]", new { days },
            commandType: CommandType.StoredProcedure);

    public Task<int> RecalculateAsync() => db.Database.ExecuteSqlRawAsync("EXEC billing.Invoice_Recalculate @p0", 1);

    public async Task<int> ResetAsync()
    {
        using var command = db.Database.GetDbConnection().CreateCommand();
        command.CommandText = "dbo.Orders_Reset";
        command.CommandType = CommandType.StoredProcedure;
        return await command.ExecuteNonQueryAsync();
    }

    // A one-word statement is no procedure.
    public Task<int> CommitAsync() => db.Database.GetDbConnection().ExecuteAsync("COMMIT");

    // The procedure's own name is known only at run time: no fact.
    public Task<int> DeleteFromAsync(string table) =>
        db.Database.GetDbConnection().ExecuteAsync($"[dbo].[{table}_DeleteAll]", commandType: CommandType.StoredProcedure);
}
