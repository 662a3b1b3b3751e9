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
    }

    public override async Task HandleAsync(CancellationToken ct) => await Send.OkAsync("ok", ct);
}
