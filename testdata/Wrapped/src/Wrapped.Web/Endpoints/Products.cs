using Wrapped.Web.Infrastructure;

namespace Wrapped.Web.Endpoints;

/// <summary>Handed its group by a call (Program.cs): `/api/products` then the wrapper's pattern.</summary>
public static class Products
{
    public static void Map(RouteGroupBuilder group)
    {
        group.MapGet(GetProduct, "{id:int}");
        group.MapGet(() => Results.Ok(), pattern: "count");
    }

    public static string GetProduct(int id) => $"product {id}";
}
