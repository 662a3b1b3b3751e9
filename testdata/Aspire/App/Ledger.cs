/// <summary>eShopSupport's AddChatCompletionService: the keys are computed from a parameter, here and in the helper
/// it hands the name to (`configuration[$"{serviceName}:Type"]`, `GetConnectionString(name)`). Program's
/// `Connect(..., "ledger")` reads `ledger:Type` and `ConnectionStrings:ledger` through them; what the computed reads
/// may reach elsewhere (the `ConnectionStrings:eventbus` AppHost gives App) is `read_dynamically`.</summary>
public static class Ledger
{
    public static string Connect(IConfiguration configuration, string serviceName) =>
        configuration[$"{serviceName}:Type"] + Open(configuration, serviceName);

    private static string? Open(IConfiguration configuration, string name) => configuration.GetConnectionString(name);

    /// <summary>eShop's GetRequiredValue: the key is read under the section it is called on (`Identity:Audience` for
    /// Program's `GetSection("Identity").Required("Audience")`).</summary>
    public static string Required(this IConfiguration configuration, string key) =>
        configuration[key] ?? throw new InvalidOperationException(key);

    /// <summary>eShop's AddDefaultAuthentication: it returns unless its section exists, so `Auth:Authority` is read only
    /// where `Auth` is configured (a project without it does not lack the key).</summary>
    public static string? Authority(IConfiguration configuration)
    {
        var auth = configuration.GetSection("Auth");
        if (!auth.Exists()) return null;
        return auth.Required("Authority");
    }

    /// <summary>The section a helper reads from may be a local: `Limit(config, "Daily")` reads `Limits:Daily`.</summary>
    public static string? Limit(IConfiguration configuration, string limit)
    {
        var config = configuration.GetSection("Limits");
        return config[limit];
    }
}
