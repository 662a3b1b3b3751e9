namespace Web.Api.Infrastructure;

/// <summary>Options configured in code (realworld's `services.Configure&lt;JwtIssuerOptions&gt;(options => ...)`): a DI
/// registration of IOptions&lt;JwtIssuerOptions&gt;, with no configuration key.</summary>
public static class JwtSetup
{
    public static IServiceCollection AddJwt(this IServiceCollection services) =>
        services.Configure<JwtIssuerOptions>(options => options.Issuer = "shop");
}

public sealed class JwtIssuerOptions
{
    public string Issuer { get; set; } = "";
}
