using Web.Api.Data;
using Web.Api.Services;

namespace Web.Api.Endpoints;

/// <summary>Minimal API handlers bound as method groups in Program.cs.</summary>
public static class OrderEndpoints
{
    public static async Task<IResult> GetById(int id, IOrderService orders, CancellationToken cancellationToken) =>
        Results.Ok(await orders.GetOrderAsync(id, cancellationToken));

    public static async Task<IResult> Create(Order order, IOrderService orders, CancellationToken cancellationToken) =>
        Results.Ok(await orders.PlaceOrderAsync(order, cancellationToken));
}

public static class HealthBranch
{
    public static void Configure(IApplicationBuilder branch) =>
        branch.Run(context => context.Response.WriteAsync("healthy"));
}
