/// <summary>eShop's AddOpenAI/AddOllama: a method of the AppHost configures the project resources it is handed.
/// What it gives `shop` is App's, since Program hands it App.</summary>
internal static class Extensions
{
    public static IDistributedApplicationBuilder AddPayments(this IDistributedApplicationBuilder builder,
        IResourceBuilder<ProjectResource> shop)
    {
        const string ledger = "ledger";
        shop.WithReference(builder.AddConnectionString(ledger))
            .WithEnvironment("Payments__Gateway", "https://pay.example");
        return builder;
    }
}
