namespace Web.Api.Endpoints;

/// <summary>A lambda that only forwards to a method of the solution: that method is the handler.</summary>
public static class BrandEndpoints
{
    public static void AddRoute(IEndpointRouteBuilder app) =>
        app.MapGet("/brands", async (int page) => await ListAsync(page));

    private static Task<IResult> ListAsync(int page) => Task.FromResult(Results.Ok(page));
}
