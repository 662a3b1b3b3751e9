using System.Diagnostics;

namespace Web.Api.Infrastructure;

public sealed class RequestTimingMiddleware(RequestDelegate next, ILogger<RequestTimingMiddleware> logger)
{
    public async Task InvokeAsync(HttpContext context)
    {
        var clock = Stopwatch.StartNew();
        await next(context);
        logger.LogTrace("{Path} took {Elapsed} ms", context.Request.Path, clock.ElapsedMilliseconds);
    }
}

public static class RequestTimingExtensions
{
    public static IApplicationBuilder UseRequestTiming(this IApplicationBuilder app) =>
        app.UseMiddleware<RequestTimingMiddleware>();
}
