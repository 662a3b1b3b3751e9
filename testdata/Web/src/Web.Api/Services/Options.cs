namespace Web.Api.Services;

public sealed class PaymentOptions
{
    public string Provider { get; set; } = "";
    public int TimeoutSeconds { get; set; }
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
