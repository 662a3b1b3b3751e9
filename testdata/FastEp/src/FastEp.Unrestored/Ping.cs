using FastEndpoints;

namespace FastEp.Unrestored;

public sealed class Ping : EndpointWithoutRequest
{
    public override void Configure()
    {
        Post(PingRequest.Route);
        AllowAnonymous();
    }

    public override Task HandleAsync(CancellationToken ct) => Task.CompletedTask;
}
