namespace Partial.Web;

// Exceptionless's ApmConfig: a section kept in a field typed IConfiguration, read elsewhere in the class.
public class ApmConfig
{
    private readonly IConfiguration _apm;
    private readonly IConfiguration _store;

    public ApmConfig(IConfiguration config)
    {
        _apm = config.GetSection("Apm");
        _store = config.GetSection("Storage");
    }

    public ApmConfig(IConfiguration config, bool legacy)
    {
        _apm = config.GetSection("Apm");
        _store = config.GetSection(legacy ? "LegacyStorage" : "Storage");
    }

    private IConfigurationSection Tracing { get; } = null!;

    public string ServiceName => _apm["ServiceName"] ?? "svc";

    public bool EnableLogs => _apm.GetValue<bool>("EnableLogs");

    public double Ratio => Tracing.GetValue<double>("Ratio");

    public string? Bucket => _store["Bucket"];
}
