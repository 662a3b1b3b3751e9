using FastEndpoints;

namespace FastEp.Api.Admin;

public sealed class Purge : EndpointWithoutRequest
{
    public override void Configure()
    {
        Post("/purge");
        Group<Administration>();
    }

    public override Task HandleAsync(CancellationToken ct) => Task.CompletedTask;
}

public sealed class DailyReport : EndpointWithoutRequest<string>
{
    public override void Configure()
    {
        Get("daily");
        Group<Reports>();
        Version(2);
    }

    public override async Task HandleAsync(CancellationToken ct) => await Send.OkAsync("ok", ct);
}

/// <summary>Its own prefix instead of the app's RoutePrefix ("" would be none).</summary>
public sealed class MobileStatus : EndpointWithoutRequest<string>
{
    public override void Configure()
    {
        Get("status");
        RoutePrefixOverride("mobile/api");
    }

    public override async Task HandleAsync(CancellationToken ct) => await Send.OkAsync("up", ct);
}
