using Asp.Versioning;
using Asp.Versioning.Builder;

namespace Web.Api.Endpoints;

/// <summary>fullstackhero's modules: the API versions are an ApiVersionSet built first (a local, or a field) and set on
/// the group by WithApiVersionSet; extension methods the group is handed map the routes. Never called: routes as
/// written.</summary>
public static class RatingEndpoints
{
    // A set built once for the class: v0.9 is deprecated (still answered), v1 current.
    private static readonly ApiVersionSet Legacy = new ApiVersionSetBuilder("Legacy")
        .HasDeprecatedApiVersion(new ApiVersion(0, 9)).HasApiVersion(new ApiVersion(1)).Build();

    public static void MapRatings(this IEndpointRouteBuilder endpoints)
    {
        var versionSet = endpoints.NewApiVersionSet()
            .HasApiVersion(new ApiVersion(1))
            .HasApiVersion(new ApiVersion(2))
            .ReportApiVersions()
            .Build();
        var group = endpoints.MapGroup("api/v{version:apiVersion}/ratings")
            .WithTags("Ratings")
            .WithApiVersionSet(versionSet);
        group.MapGet("/", () => Results.Ok());
        group.MapRatingById();
        group.MapDeleteRating();
        endpoints.MapGroup("api/v{version:apiVersion}/legacy/ratings").WithApiVersionSet(Legacy).MapRatingById();
    }

    internal static RouteHandlerBuilder MapRatingById(this IEndpointRouteBuilder endpoints) =>
        endpoints.MapGet("/{id:int}", (int id) => Results.Ok(id));

    // Mapped to v2 alone, out of the two its group's set declares.
    internal static RouteHandlerBuilder MapDeleteRating(this IEndpointRouteBuilder endpoints) =>
        endpoints.MapDelete("/{id:int}", (int id) => Results.NoContent()).MapToApiVersion(2.0);
}
