namespace RoslynMap.Bridge.Facts;

/// <summary>Route template arithmetic: leading `/`, no trailing `/`, constraints untouched.</summary>
internal static class RouteTemplates
{
    public static string Normalize(string template)
    {
        var t = template.StartsWith("~/", StringComparison.Ordinal) ? template[2..] : template;
        return "/" + t.Trim('/');
    }

    /// <summary>Prefix + template; a template starting with `/` or `~/` ignores the prefix (MVC's rule).</summary>
    public static string Combine(string? prefix, string template)
    {
        if (prefix is null || template.StartsWith('/') || template.StartsWith("~/", StringComparison.Ordinal))
            return Normalize(template);
        if (template.Length == 0) return Normalize(prefix);
        return Normalize(prefix.TrimEnd('/') + "/" + template);
    }

    /// <summary>Minimal API groups always nest, whatever slashes the parts carry.</summary>
    public static string Join(string prefix, string template) =>
        Normalize(prefix.TrimEnd('/') + "/" + template.TrimStart('/'));

    /// <summary>`[controller]`, `[action]` and `[area]` tokens (case-insensitive, as MVC does).</summary>
    public static string ReplaceTokens(string template, string controller, string action, string? area)
    {
        if (template.IndexOf('[') < 0) return template;
        var t = template.Replace("[controller]", controller, StringComparison.OrdinalIgnoreCase)
            .Replace("[action]", action, StringComparison.OrdinalIgnoreCase);
        return area is null ? t : t.Replace("[area]", area, StringComparison.OrdinalIgnoreCase);
    }
}
