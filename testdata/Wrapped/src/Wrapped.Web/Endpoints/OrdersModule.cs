using Carter;

namespace Wrapped.Web.Endpoints;

/// <summary>A Carter module: Carter calls AddRoutes (no call in the solution does) on a group with the base
/// path the constructor gives.</summary>
public class OrdersModule : CarterModule
{
    public OrdersModule()
        : base("/orders")
    {
    }

    public override void AddRoutes(IEndpointRouteBuilder app)
    {
        app.MapGet("/{id:int}", (int id) => Results.Ok(id));
        app.MapPost("/", () => Results.Created());
    }
}
