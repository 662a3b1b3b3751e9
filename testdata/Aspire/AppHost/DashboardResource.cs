/// <summary>aspire-samples' HealthChecksUI: a resource of the AppHost's own whose `WithReference` takes a project
/// (`dashboard.WithReference(app)`) and sets that project's environment in a callback. Its receiver is the dashboard,
/// so `app.WithReference(catalogDb)` is still Aspire's own.</summary>
public sealed class DashboardResource(string name) : ContainerResource(name);

public static class DashboardResourceExtensions
{
    private const string DashboardUrls = "DASHBOARD_URLS";

    public static IResourceBuilder<DashboardResource> AddDashboard(this IDistributedApplicationBuilder builder, string name) =>
        builder.AddResource(new DashboardResource(name));

    public static IResourceBuilder<DashboardResource> WithReference(this IResourceBuilder<DashboardResource> builder,
        IResourceBuilder<ProjectResource> project)
    {
        project.WithEnvironment(context =>
        {
            context.EnvironmentVariables[DashboardUrls] = "http://dashboard/health";
        });
        return builder;
    }
}
