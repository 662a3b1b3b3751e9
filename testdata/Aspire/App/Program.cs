using Aspire.Bus;

var builder = WebApplication.CreateBuilder(args);
builder.Configuration.AddInMemoryCollection(Defaults.Values).AddInMemoryCollection(Defaults.FromArgs(args)).AddInMemoryCollection(new List<KeyValuePair<string, string?>> { new("Payments:Folder", Path.GetTempPath()) });
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
var chat = Ledger.Connect(builder.Configuration, "chat");
var model = builder.Configuration["chat:ModelName"];
var report = Report("reports");
var https = builder.Configuration["DOTNET_LAUNCH_PROFILE"] == "https";
var mode = builder.Configuration["Payments:Mode"];
var dashboardUrls = builder.Configuration["DASHBOARD_URLS"];
// Service discovery reads Services:{name}:{endpoint} (appsettings.Production.json: aspire-samples' WPF client).
builder.Services.AddServiceDiscovery();
var selfHosted = builder.Configuration["SelfHosted"];
// eShop's AddAIServices: the connection string's presence is tested before it is used (an optional feature).
var assistant = !string.IsNullOrWhiteSpace(builder.Configuration.GetConnectionString("assistant"));
builder.Build().Run();

// eShopSupport's Evaluator: a local function reading from a configuration it makes (a root, not a section).
static string? Report(string name)
{
    var config = new ConfigurationManager();
    return config.GetConnectionString(name);
}

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

    /// <summary>jellyfin's StartupOptions.ConvertToConfig(): a dictionary filled key by key and returned.</summary>
    public static Dictionary<string, string?> FromArgs(string[] args)
    {
        var config = new Dictionary<string, string?>();
        if (args.Length > 0)
        {
            config.Add("Payments:Channel", args[0]);
        }

        config["Payments:Sandbox"] = bool.TrueString;
        return config;
    }
}
