using FastEndpoints;

namespace FastEp.Api.Orders;

public sealed class GetOrderRequest
{
    public const string Route = "/orders/{Id:int}";

    public int Id { get; set; }
}

public sealed record OrderResponse(int Id, string Status);

/// <summary>ardalis/CleanArchitecture's shape: the route is a constant of the request, the handler ExecuteAsync.</summary>
public sealed class GetOrder : Endpoint<GetOrderRequest, OrderResponse>
{
    public override void Configure()
    {
        Get(GetOrderRequest.Route);
        AllowAnonymous();
    }

    public override Task<OrderResponse> ExecuteAsync(GetOrderRequest req, CancellationToken ct) =>
        Task.FromResult(new OrderResponse(req.Id, "open"));
}
