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
    }
}
