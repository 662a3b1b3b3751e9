namespace Web.Api.Infrastructure;

// Sonarr's Bootstrap: configuration from an XML file and prefixed environment variables, which the index cannot
// read. A key appsettings lack may be set there: surfaces_list_config_keys says so beside its used_but_undefined keys.
public static class LegacyConfiguration
{
    public static IConfigurationBuilder AddLegacySources(this IConfigurationBuilder builder) =>
        builder.AddXmlFile("legacy.xml", optional: true).AddEnvironmentVariables("SHOP_").AddJsonFile("appsettings.Local.json", optional: true);
}
