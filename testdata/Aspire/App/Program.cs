using Aspire.Bus;

var builder = WebApplication.CreateBuilder(args);
builder.Configuration.AddInMemoryCollection(Defaults.Values);
builder.AddBus("eventbus").Subscribe("orders");
builder.AddNpgsqlDbContext<CatalogContext>("catalogdb");
var identity = builder.Configuration["Identity:Url"];
var callback = builder.Configuration["CallBackUrl"];
var retries = builder.Configuration[Defaults.RetriesKey];
var missing = builder.Configuration["Payments:Endpoint"];
var gateway = builder.Configuration["Payments:Gateway"];
var ledger = Ledger.Connect(builder.Configuration, "ledger");
var audience = builder.Configuration.GetSection("Identity").Required("Audience");
var daily = Ledger.Limit(builder.Configuration, "Daily");
builder.Build().Run();

/// <summary>Stands for an EF Core context (the Npgsql integration's package is not restored here).</summary>
public sealed class CatalogContext
{
}

/// <summary>jellyfin's ConfigurationOptions.DefaultConfiguration: defaults defined in code and fed to
/// AddInMemoryCollection, so these keys are defined although no appsettings file has them.</summary>
public static class Defaults
{
    public const string RetriesKey = "Payments:Retries";

    public static Dictionary<string, string?> Values => new()
    {
        { RetriesKey, "3" },
        ["Payments:Currency"] = "EUR",
    };
}
