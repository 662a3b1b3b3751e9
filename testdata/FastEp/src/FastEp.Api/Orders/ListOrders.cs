using FastEndpoints;

namespace FastEp.Api.Orders;

/// <summary>No request type: the handler takes only the cancellation token.</summary>
public sealed class ListOrders : EndpointWithoutRequest<List<OrderResponse>>
{
    public override void Configure()
    {
        Get("/orders");
        AllowAnonymous();
    }

    public override async Task HandleAsync(CancellationToken ct) =>
        await Send.OkAsync([new OrderResponse(1, "open")], ct);
}

/// <summary>An endpoint class the next one derives from.</summary>
public class Ping : EndpointWithoutRequest
{
    public override void Configure()
    {
        Get("/health/ping");
        AllowAnonymous();
    }

    public override Task HandleAsync(CancellationToken ct) => Task.CompletedTask;
}

/// <summary>FastEndpoints' TestHarness `Endpoint_V1 : Endpoint`: the base's routes (base.Configure()), version 1.</summary>
public sealed class PingV1 : Ping
{
    public override void Configure()
    {
        base.Configure();
        Version(1);
    }
}
