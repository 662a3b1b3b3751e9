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

    /// <summary>bitwarden's AddBitwardenService&lt;TProject&gt;: a generic method makes the project resource its callers
    /// name by type argument (`AddService&lt;Projects.App&gt;(...)`), so `SelfHosted` is App's, not a "TProject"'s.</summary>
    public static IResourceBuilder<ProjectResource> AddService<TProject>(this IDistributedApplicationBuilder builder,
        string name) where TProject : IProjectMetadata, new() =>
        builder.AddProject<TProject>(name).WithEnvironment("SelfHosted", "true");

    /// <summary>eShop's AddOpenAI: handed the project and a value of the AppHost's own enum, it builds the connection
    /// string from an expression (`AddConnectionString(name, cs => ..)`): the AppHost reads no configuration for it,
    /// and App, handed in by Program, gets `ConnectionStrings:assistant`.</summary>
    public static IDistributedApplicationBuilder AddAssistant(this IDistributedApplicationBuilder builder,
        IResourceBuilder<ProjectResource> shop, AssistantTarget target)
    {
        const string assistant = "assistant";
        if (target == AssistantTarget.Hosted)
            shop.WithReference(builder.AddConnectionString(assistant, cs => cs.Append($"Endpoint=https://assistant")));
        return builder;
    }
}

public enum AssistantTarget
{
    Local,
    Hosted,
}
