/// <summary>eShopSupport's OllamaResource: a resource of the AppHost's own, with its own `WithReference` overload.
/// `app.WithReference(chat)` calls that overload (its parameter has the type AddModel returns), not Aspire's: App is
/// given `chat:Type`, `chat:ModelName` and an endpoint, not `ConnectionStrings:chat`.</summary>
public sealed class ModelResource(string name, string model) : ContainerResource(name)
{
    public string Model { get; } = model;
}

public static class ModelResourceExtensions
{
    public static IResourceBuilder<ModelResource> AddModel(this IDistributedApplicationBuilder builder, string name) =>
        builder.AddResource(new ModelResource(name, "llama3"));

    public static IResourceBuilder<TDestination> WithReference<TDestination>(this IResourceBuilder<TDestination> builder,
        IResourceBuilder<ModelResource> model)
        where TDestination : IResourceWithEnvironment =>
        builder.WithReference(model.GetEndpoint("http"))
            .WithEnvironment($"{model.Resource.Name}:Type", "local")
            .WithEnvironment($"{model.Resource.Name}:ModelName", model.Resource.Model);
}
