using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace RoslynMap.Bridge;

/// <summary>The target frameworks the user asked for: `roslynmap.json` at the repository root
/// ({"framework": "net8.0", "frameworks": {"Project": "tfm"}}), overridden by what the caller passes
/// (`roslynmap index --framework`, index_ensure_baseline's `framework`), same shape.</summary>
internal sealed class FrameworkRequest
{
    public string? Framework;
    public readonly Dictionary<string, string> PerProject = new(StringComparer.OrdinalIgnoreCase);
    public readonly List<string> Sources = new();

    public static FrameworkRequest Read(string repoRoot, string? overrideJson)
    {
        var request = new FrameworkRequest();
        var config = Path.Combine(repoRoot, "roslynmap.json");
        if (File.Exists(config))
        {
            try
            {
                request.Merge(File.ReadAllText(config), "roslynmap.json");
            }
            catch (Exception ex) when (ex is IOException or JsonException)
            {
                request.Sources.Add($"roslynmap.json ignored: {ex.Message}");
            }
        }
        if (!string.IsNullOrWhiteSpace(overrideJson)) request.Merge(overrideJson, "argument");
        return request;
    }

    private void Merge(string json, string source)
    {
        using var doc = JsonDocument.Parse(json);
        if (doc.RootElement.ValueKind != JsonValueKind.Object) return;
        var used = false;
        if (doc.RootElement.TryGetProperty("framework", out var f) && f.ValueKind == JsonValueKind.String
            && f.GetString() is { Length: > 0 } tfm)
        {
            Framework = tfm;
            PerProject.Clear(); // a framework given on the command line beats per-project entries of the file
            used = true;
        }
        if (doc.RootElement.TryGetProperty("frameworks", out var map) && map.ValueKind == JsonValueKind.Object)
        {
            foreach (var p in map.EnumerateObject())
            {
                if (p.Value.ValueKind == JsonValueKind.String && p.Value.GetString() is { Length: > 0 } v) PerProject[p.Name] = v;
            }
            used = true;
        }
        if (used) Sources.Add(source);
    }

    public string? For(string projectName) => PerProject.TryGetValue(projectName, out var tfm) ? tfm : Framework;
}

/// <summary>
/// Of the Project objects MSBuildWorkspace loads for one multi-targeted project file (one per target
/// framework, "X(net46)", "X(net10.0)"), picks the one to index: the requested framework if the project
/// has it; else the frameworks whose core library resolves (their reference assemblies are present)
/// before those whose does not, then the newest (.NET 5+ over .NET Core over .NET Standard over .NET
/// Framework; higher versions first; no OS suffix before one), then load order.
/// </summary>
internal static partial class FrameworkChooser
{
    public sealed record Variant(Project Project, string Tfm, bool CoreResolved);

    public sealed record Choice(Variant Chosen, string How, List<SkippedFramework> Skipped);

    public static Choice Choose(IReadOnlyList<Variant> variants, string? requested, string requestSource)
    {
        if (variants.Count == 1) return new Choice(variants[0], "only", []);
        var asked = requested is null ? null
            : variants.FirstOrDefault(v => string.Equals(v.Tfm, requested, StringComparison.OrdinalIgnoreCase));
        var ranked = variants
            .Select((v, i) => (v, i))
            .OrderByDescending(x => x.v.CoreResolved)
            .ThenByDescending(x => Rank(x.v.Tfm))
            .ThenBy(x => x.i)
            .Select(x => x.v)
            .ToList();
        var chosen = asked ?? ranked[0];
        var how = asked is not null ? "requested" : "auto";
        var skipped = new List<SkippedFramework>();
        foreach (var v in variants)
        {
            if (ReferenceEquals(v, chosen)) continue;
            string reason;
            if (asked is not null) reason = $"not the requested framework ({requestSource}: {requested})";
            else if (!v.CoreResolved) reason = $"its core library does not resolve (no reference assemblies for {v.Tfm} here)";
            // IfpaMaui's net10.0-ios beside net10.0-android, eShop's ClientApp net10.0-android beside net10.0: the same
            // version on another platform is not "older".
            else if (Rank(v.Tfm) is var rank && Rank(chosen.Tfm) is var best && (rank.Family, rank.Version) == (best.Family, best.Version))
                reason = best.Portable && !rank.Portable
                    ? $"same .NET version as {chosen.Tfm}, preferred for having no platform suffix (one framework is indexed per project; `framework` picks another)"
                    : $"same .NET version as {chosen.Tfm}, which was chosen (one framework is indexed per project; `framework` picks another)";
            else reason = $"older than {chosen.Tfm}";
            skipped.Add(new SkippedFramework(v.Tfm, reason));
        }
        if (requested is not null && asked is null)
            skipped.Add(new SkippedFramework(requested, $"requested ({requestSource}) but not a target framework of this project"));
        return new Choice(chosen, how, skipped);
    }

    /// <summary>True when System.Object binds against the project's metadata references alone: the
    /// reference assemblies of its framework are there (cheap: a compilation with no source).</summary>
    public static bool CoreResolves(Project project)
    {
        if (project.MetadataReferences.Count == 0) return false;
        var probe = CSharpCompilation.Create("roslynmap-probe", references: project.MetadataReferences);
        return probe.GetSpecialType(SpecialType.System_Object).TypeKind != TypeKind.Error;
    }

    /// <summary>Sort key, larger is newer: (family, version, no OS suffix).</summary>
    internal static (int Family, Version Version, bool Portable) Rank(string tfm)
    {
        var m = TfmPattern().Match(tfm.ToLowerInvariant());
        if (!m.Success) return (-1, new Version(0, 0), true);
        var name = m.Groups["name"].Value;
        var digits = m.Groups["version"].Value;
        var portable = !m.Groups["os"].Success;
        Version version;
        if (digits.Contains('.')) version = Version.TryParse(digits, out var v) ? v : new Version(0, 0);
        else version = new Version(digits[0] - '0', digits.Length > 1 ? digits[1] - '0' : 0, digits.Length > 2 ? digits[2] - '0' : 0);
        var family = name switch
        {
            "netcoreapp" => 2,
            "netstandard" => 1,
            _ => version.Major >= 5 && digits.Contains('.') ? 3 : 0, // net5.0+ vs net46, net472
        };
        return (family, version, portable);
    }

    [GeneratedRegex(@"^(?<name>netcoreapp|netstandard|net)(?<version>\d+(\.\d+)*)(?<os>-.+)?$")]
    private static partial Regex TfmPattern();
}
