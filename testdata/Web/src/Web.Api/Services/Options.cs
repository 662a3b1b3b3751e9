namespace Web.Api.Services;

public sealed class PaymentOptions
{
    public string Provider { get; set; } = "";
    public int TimeoutSeconds { get; set; }

    // The binder reads `Payments:api_key` for it (dev.azure's snake_case settings).
    [Microsoft.Extensions.Configuration.ConfigurationKeyName("api_key")]
    public string? ApiKey { get; set; }
}

public sealed class ShippingOptions
{
    public string Region { get; set; } = "";
    public string BaseUrl { get; set; } = "";
}

public sealed class AuditOptions
{
    public string Path { get; set; } = "audit.log";
}
