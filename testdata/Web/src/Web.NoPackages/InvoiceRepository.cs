using Dapper;
using Microsoft.Data.SqlClient;
using Polly;
using Polly.Retry;

namespace Web.NoPackages;

/// <summary>Dapper, SqlClient and Polly without their packages: nothing here binds.</summary>
public sealed class InvoiceRepository(SqlConnection connection, ILogger<InvoiceRepository> logger)
{
    private readonly ISyncPolicy _retry = Policy.Handle<SqlException>().Or<TimeoutException>().WaitAndRetry(3, _ => TimeSpan.FromSeconds(1));

    private readonly ResiliencePipeline _pipeline = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions { MaxRetryAttempts = 2 })
        .Build();

    public Invoice? Find(int id) => _retry.Execute(() =>
        connection.QueryFirstOrDefault<Invoice>("SELECT Id, Amount FROM [billing].[invoices] WHERE Id = @id", new { id }));

    public int Delete(int id)
    {
        using var command = new SqlCommand("DELETE FROM billing.invoices WHERE Id = @id", connection);
        command.Parameters.AddWithValue("@id", id);
        logger.LogInformation("Deleting invoice {InvoiceId}", id);
        return _pipeline.Execute(() => command.ExecuteNonQuery());
    }
}
