using Asp.Versioning;

namespace Web.Api.Endpoints;

/// <summary>eShop's Catalog API: one path mapped on a v1 and a v2 group (Asp.Versioning), so two handlers
/// answer GET /api/stock/items and only the API version tells them apart. Never called: routes as written.</summary>
public static class VersionedEndpoints
{
    public static void MapStock(this IEndpointRouteBuilder routes)
    {
        var v1 = routes.MapGroup("/api/stock").HasApiVersion(1, 0);
        var both = routes.MapGroup("/api/stock").HasApiVersion(1.0).HasApiVersion(new ApiVersion(2, 0));
        var v2 = routes.MapGroup("/api/stock").HasApiVersion(2.0);
        v1.MapGet("/items", ListV1);
        v2.MapGet("/items", List);
        both.MapGet("/items/{id:int}", (int id) => Results.Ok(id));
        // A versioned group handed to another method: its routes carry the group's version.
        MapStockAdmin(routes.MapGroup("/api/stock").HasApiVersion(3.0));
    }

    private static void MapStockAdmin(IEndpointRouteBuilder admin) =>
        admin.MapDelete("/items/{id:int}", (int id) => Results.NoContent());

    private static IResult ListV1() => Results.Ok();

    private static IResult List() => Results.Ok();
}
