namespace Web.Api.Endpoints;

/// <summary>Routes mapped on groups the caller passes in: their prefixes come from Program.cs.</summary>
public static class CatalogEndpoints
{
    public static RouteGroupBuilder MapCatalog(this RouteGroupBuilder group)
    {
        group.MapGet("/items", () => Results.Ok());
        MapReviews(group.MapGroup("/reviews"));
        return group;
    }

    private static void MapReviews(RouteGroupBuilder reviews) =>
        reviews.MapGet("/{id:int}", (int id) => Results.Ok(id));

    public static void MapCatalogAdmin(IEndpointRouteBuilder routes) =>
        routes.MapDelete("/catalog/cache", () => Results.NoContent());

    public static void MapPromotions(this IEndpointRouteBuilder routes)
    {
        var promotions = routes.MapGroup("/promotions");
        promotions.MapGet("/", () => Results.Ok());
    }

    /// <summary>Never called: its route has no prefix to inherit and is listed as written.</summary>
    public static void MapUnused(RouteGroupBuilder unused) => unused.MapGet("/unused", () => Results.Ok());
}
