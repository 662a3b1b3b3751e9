namespace Slug.Web;

public static class StoreRoutes
{
    // A route path in a static readonly field (Blogifier's): a constant in all but name.
    public static readonly string Feed = "store/feed";

    // grandnode's `$"{pattern}login/"`: a prefix the app computes at run time (an optional language segment). The
    // route is listed from its constant text, the prefix named in dynamic_parts.
    public static void Register(IEndpointRouteBuilder endpoints, string prefix)
    {
        endpoints.MapControllerRoute("cart", $"{prefix}cart/", new { controller = "Cart", action = "Index" });
        endpoints.MapGet(prefix + "ping", () => "pong");
        endpoints.MapGet("health", () => "store");
        endpoints.MapGet(Feed, () => "rss");
        endpoints.MapInfoEndpoint();
        endpoints.MapInfoEndpoint("/about");
    }
}

public static class InfoEndpoints
{
    // Practical.CleanArchitecture's MapProcessInforEndpoint: the route's path a parameter with a default.
    public static void MapInfoEndpoint(this IEndpointRouteBuilder builder, string path = "/info") =>
        builder.MapGet(path, () => "info");
}
