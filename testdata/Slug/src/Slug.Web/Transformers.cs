using System.Text.RegularExpressions;

namespace Slug.Web;

/// <summary>The transformer of Microsoft's routing docs (and eShopOnWeb): `MyOrders` -> `my-orders`.</summary>
public sealed class SlugifyParameterTransformer : IOutboundParameterTransformer
{
    public string? TransformOutbound(object? value)
    {
        if (value is null) return null;
        return Regex.Replace(value.ToString()!, "([a-z])([A-Z])", "$1-$2").ToLowerInvariant();
    }
}

/// <summary>What this one writes is decided by a helper the index does not run: its routes say it.</summary>
public sealed class ShoutTransformer : IOutboundParameterTransformer
{
    public string? TransformOutbound(object? value) => Loud(value?.ToString());

    private static string? Loud(string? text) => text is null ? null : string.Concat(text.Select(char.ToUpperInvariant));
}
