namespace Web.Api.Infrastructure;

/// <summary>Options bound in every way the binder offers; each property is a configuration key.</summary>
public static class ConfigurationSetup
{
    public static IServiceCollection AddCatalogConfiguration(this IServiceCollection services, IConfiguration configuration)
    {
        services.Configure<CatalogSettings>(configuration);
        services.AddOptions<CatalogOptions>().BindConfiguration(nameof(CatalogOptions));
        var search = configuration.GetSection("Search").Get<SearchOptions>();
        var baseUrl = configuration.GetValue(typeof(string), "CatalogBaseUrl");
        var active = configuration[configuration["Features:ActiveFlag"]!];
        return services;
    }

    // Registrations through extensions: the solution's own (its body registers) and the framework's.
    public static IServiceCollection AddWebApi(this IServiceCollection services, IConfiguration configuration) =>
        services.AddCatalogConfiguration(configuration).AddMemoryCache();
}

public sealed class CatalogSettings
{
    public string CatalogBaseUrl { get; set; } = "";
}

public sealed class CatalogOptions
{
    public string PicBaseUrl { get; set; } = "";
    public bool UseCustomizationData { get; set; }
}

public sealed class SearchOptions
{
    public int PageSize { get; set; }
    public SearchBackend Backend { get; } = new();  // get-only: the binder fills the instance there
    public List<string> Fields { get; } = new();
    public int Computed => PageSize * 2;
}

public sealed class SearchBackend
{
    public string Url { get; set; } = "";
}
