using FastEndpoints;

namespace FastEp.Api.Orders;

public sealed class UpdateOrderRequest
{
    public int Id { get; set; }

    public string Status { get; set; } = "";
}

/// <summary>Two verbs on two routes: every verb on every route.</summary>
public sealed class UpdateOrder : Endpoint<UpdateOrderRequest>
{
    public override void Configure()
    {
        Verbs(Http.PUT, Http.PATCH);
        Routes("/orders/{Id:int}", "/orders/{Id:int}/status");
    }

    public override Task HandleAsync(UpdateOrderRequest req, CancellationToken ct) => Task.CompletedTask;
}

/// <summary>A route without its leading slash, and the overload whose second argument names the
/// request's route parameter (an expression, not a second route).</summary>
public sealed class DeleteOrder : Endpoint<GetOrderRequest>
{
    public override void Configure() => Delete("orders/{Id:int}", r => r.Id);

    public override Task HandleAsync(GetOrderRequest req, CancellationToken ct) => Task.CompletedTask;
}
