using Microsoft.Extensions.Logging.Abstractions;

namespace Flow.Web;

// SimplCommerce's EFConfigSource: settings a database table holds, added by `builder.Add(new Source(..))`. The index
// cannot read its keys: a key no appsettings file defines (Flow:RateLimit) may be set there.
public static class TableSettings
{
    public static IConfigurationBuilder AddTableSettings(this IConfigurationBuilder builder) =>
        builder.Add(new TableSettingsSource());
}

public sealed class TableSettingsSource : IConfigurationSource
{
    public IConfigurationProvider Build(IConfigurationBuilder builder) => new TableSettingsProvider(NullLogger.Instance);
}

public sealed class TableSettingsProvider(ILogger logger) : ConfigurationProvider
{
    // SimplCommerce's AccountController: `_logger.LogInformation(1, "User logged in.")`, an event id before the template.
    public override void Load() => logger.LogInformation(3, "Loaded {Count} settings", Data.Count);
}
