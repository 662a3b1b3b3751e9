namespace Wrapped.Web.Infrastructure;

/// <summary>Map{Verb} overloads taking the handler first: each forwards to the framework's with its own
/// parameters, so the route is known only at each call.</summary>
public static class EndpointRouteBuilderExtensions
{
    public static RouteHandlerBuilder MapGet(this IEndpointRouteBuilder builder, Delegate handler, string pattern = "") =>
        builder.MapGet(pattern, handler).WithName(handler.Method.Name);

    public static RouteHandlerBuilder MapPost(this IEndpointRouteBuilder builder, Delegate handler, string pattern = "") =>
        builder.MapPost(pattern, handler).WithName(handler.Method.Name);

    public static RouteHandlerBuilder MapPut(this IEndpointRouteBuilder builder, Delegate handler, string pattern)
    {
        return builder.MapPut(pattern, handler).WithName(handler.Method.Name);
    }
}
