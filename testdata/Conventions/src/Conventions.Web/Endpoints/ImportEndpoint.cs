using MinimalApi.Endpoint;

namespace Conventions.Web.Endpoints;

/// <summary>eShopOnWeb's PublicApi endpoints implement MinimalApi.Endpoint's IEndpoint, whose package did not restore
/// there; here it is not referenced at all (CS0246). AddRoute may implement the interface: not "unused".</summary>
public sealed class ImportEndpoint : IEndpoint<IResult>
{
    public void AddRoute(IEndpointRouteBuilder app) => app.MapPost("/import", () => Handle());

    public IResult Handle() => Results.Ok(Describe());

    private static string Describe() => "import";

    // Private: cannot implement an interface implicitly, and nothing calls it.
    private static string Unreferenced() => "never";
}
