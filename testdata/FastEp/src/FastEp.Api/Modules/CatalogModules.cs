using Carter;

namespace FastEp.Api.Modules;

/// <summary>A plain ICarterModule: its routes are the app's own, no base path (and not FastEndpoints' "api").</summary>
public sealed class ShelvesModule : ICarterModule
{
    public void AddRoutes(IEndpointRouteBuilder app) => app.MapGet("/shelves", () => Shelves.All());
}

/// <summary>Carter's own samples: `CarterModule("/books")` as a primary constructor's base argument.</summary>
public sealed class BooksModule() : CarterModule(BasePath)
{
    private const string BasePath = "/books";

    public override void AddRoutes(IEndpointRouteBuilder app)
    {
        app.MapGet("/{id:int}", (int id) => Shelves.Find(id));
        app.MapPost("/", () => Results.Created());
    }
}

/// <summary>A constructor's `: base("/authors")`.</summary>
public sealed class AuthorsModule : CarterModule
{
    public AuthorsModule() : base("/authors")
    {
    }

    public override void AddRoutes(IEndpointRouteBuilder app) => app.MapDelete("/{id:int}", (int id) => Results.NoContent());
}

public static class Shelves
{
    public static string[] All() => [];

    public static string? Find(int id) => id > 0 ? "found" : null;
}
