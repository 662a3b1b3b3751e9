namespace Lib.Web;

/// <summary>Registered by `UseMiddleware&lt;TimingMiddleware&gt;()`: the framework calls its InvokeAsync.</summary>
public sealed class TimingMiddleware(RequestDelegate next)
{
    public Task InvokeAsync(HttpContext context) => next(context);
}

/// <summary>Kavita's JwtRevocationMiddleware ("Not in use"): no UseMiddleware names it, so nothing runs it.</summary>
public sealed class LegacyMiddleware(RequestDelegate next)
{
    public Task InvokeAsync(HttpContext context) => next(context);
}

/// <summary>The same, whose InvokeAsync calls a member of its own (Kavita's IsTokenRevoked): nothing outside names it.</summary>
public sealed class StaleMiddleware(RequestDelegate next)
{
    public Task InvokeAsync(HttpContext context) => IsStale(context) ? Task.CompletedTask : next(context);

    private static bool IsStale(HttpContext context) => context.Request.Headers.ContainsKey("X-Stale");
}
