/// <summary>eShopSupport's AddChatCompletionService: the keys are computed from a parameter
/// (`GetConnectionString(serviceName)`, `configuration[$"{serviceName}:Type"]`). What they may read (the
/// `ConnectionStrings:ledger` AppHost gives App, `*:Type`) is `read_dynamically`, never `defined_but_unused`.</summary>
public static class Ledger
{
    public static string Connect(IConfiguration configuration, string serviceName) =>
        configuration.GetConnectionString(serviceName) + configuration[$"{serviceName}:Type"];
}
