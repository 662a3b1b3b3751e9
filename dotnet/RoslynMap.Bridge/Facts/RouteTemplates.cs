using System.Text.RegularExpressions;

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

    private static readonly Regex Parameter = new(@"\{(?<name>[^{}:=?*]+)(?<rest>[^{}]*)\}", RegexOptions.Compiled);

    /// <summary>`{controller}`, `{action}` and `{area}` parameters of an attribute route filled with the action's own
    /// route values, constraint and default dropped: ASP.NET substitutes them as the endpoint's required values, so
    /// the segment matches that name only (ActionEndpointFactory.SubstituteRequiredValues); BTCPay's
    /// `account/{action:lowercase=Index}` serves ChangePassword at `/account/ChangePassword` alone. `shortest`: the
    /// URL leaving out the trailing segments a default fills with the action's own value (`/account` for Index), as
    /// for a conventional route; null when none is.</summary>
    public static string FillRouteValues(string template, string controller, string action, string? area, out string? shortest)
    {
        shortest = null;
        if (template.IndexOf('{') < 0) return template;
        var segments = template.Split('/');
        var leaveOut = new bool[segments.Length];
        var filledDefault = new bool[segments.Length];
        var changed = false;
        for (var i = 0; i < segments.Length; i++)
        {
            var segment = segments[i];
            var whole = Parameter.Match(segment) is { Success: true } m && m.Length == segment.Length ? m : null;
            var (optional, defaulted) = whole is null ? (false, (string?)null) : OptionalOrDefault(whole.Groups["rest"].Value);
            segments[i] = Parameter.Replace(segment, p =>
            {
                var value = p.Groups["name"].Value.Trim().ToLowerInvariant() switch
                {
                    "controller" => controller, "action" => action, "area" => area, _ => null,
                };
                // A parameter transformer (`{action:slugify}`, a ConstraintMap entry of the app's) rewrites the value:
                // left as written (its route stays the template, as before), never filled with a value it changes.
                if (value is null || !OnlyConstraints(p.Groups["rest"].Value)) return p.Value;
                changed = true;
                if (whole is not null && string.Equals(defaulted, value, StringComparison.OrdinalIgnoreCase)) filledDefault[i] = true;
                return value;
            });
            // A filled parameter is a literal but for a default equal to its value; any other may be left out when
            // optional or defaulted.
            leaveOut[i] = filledDefault[i] || segment.StartsWith("{*", StringComparison.Ordinal)
                || (whole is not null && segments[i] == segment && (optional || defaulted is not null));
        }
        if (!changed) return template;
        var keep = segments.Length;
        var anyFilled = false;
        while (keep > 1 && leaveOut[keep - 1])
        {
            anyFilled |= filledDefault[keep - 1];
            keep--;
        }
        if (anyFilled) shortest = Normalize(string.Join("/", segments[..keep]));
        return string.Join("/", segments);
    }

    // ASP.NET Core's built-in route constraints: no transformer among them.
    private static readonly HashSet<string> BuiltInConstraints = new(StringComparer.OrdinalIgnoreCase)
    {
        "int", "bool", "datetime", "decimal", "double", "float", "guid", "long", "minlength", "maxlength", "length",
        "min", "max", "range", "alpha", "regex", "required", "file", "nonfile",
    };

    /// <summary>Whether a parameter's policies (`:alpha:length(3)=x`) are all built-in constraints.</summary>
    private static bool OnlyConstraints(string rest)
    {
        var policies = rest.Split('=', 2)[0].TrimEnd('?');
        foreach (var policy in policies.Split(':', StringSplitOptions.RemoveEmptyEntries))
        {
            if (!BuiltInConstraints.Contains(policy.Split('(', 2)[0].Trim())) return false;
        }
        return true;
    }

    /// <summary>A parameter's text after its name: `:alpha=Index` -> (false, "Index"); `?` -> (true, null).</summary>
    private static (bool Optional, string? Default) OptionalOrDefault(string rest)
    {
        var eq = rest.IndexOf('=');
        if (eq >= 0) return (false, rest[(eq + 1)..].TrimEnd('?'));
        return (rest.EndsWith('?'), null);
    }
}
