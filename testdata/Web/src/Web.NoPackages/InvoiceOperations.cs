namespace Web.NoPackages;

/// <summary>Polly.Extensions.Http and Serilog without their packages (eShopOnContainers' typed clients,
/// sample-dotnet-core-cqrs-api's logging): read by their syntax.</summary>
public static class InvoiceOperations
{
    public static IAsyncPolicy<HttpResponseMessage> RetryPolicy() =>
        HttpPolicyExtensions.HandleTransientHttpError().WaitAndRetryAsync(6, retry => TimeSpan.FromSeconds(Math.Pow(2, retry)));

    public static void Archived(int id) => Log.Information("Invoice {InvoiceId} archived", id);

    // NLog without its package: a receiver read as a logger is enough; `Trace` on anything else is no log.
    public static void Voided(int id) => LogManager.GetCurrentClassLogger().Warn("Invoice {InvoiceId} voided", id);

    public static void Traced(int id) => Reports.Trace("Invoice {InvoiceId} traced", id);
}
