using Microsoft.AspNetCore.Mvc.Routing;

namespace Flow.Web;

/// <summary>SimplCommerce's catch-all: which controller and action serve a path is decided here, at run time.</summary>
public sealed class SlugTransformer : DynamicRouteValueTransformer
{
    public override ValueTask<RouteValueDictionary> TransformAsync(HttpContext httpContext, RouteValueDictionary values) =>
        ValueTask.FromResult(new RouteValueDictionary { ["controller"] = "Home", ["action"] = "Index" });
}
