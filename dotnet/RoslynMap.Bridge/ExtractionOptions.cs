using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace RoslynMap.Bridge;

/// <summary>
/// The solution extraction binds against. Nullable analysis is switched off (Roslyn's
/// "run-nullable-analysis=never" parse feature): it only adds warnings and nullability
/// annotations, none of which the index records, yet it re-walks every member a second time both
/// for GetDiagnostics and for the semantic model. The only errors lost are nullable warnings a
/// project promotes to errors (WarningsAsErrors=nullable).
/// A project MSBuild could not build (its SDK missing: SourceFallback; a design-time build that failed, as
/// bitwarden's Core here) parses with no preprocessor symbols at all, so its `#if DEBUG` and
/// `#if NET8_0_OR_GREATER` code would read as inactive: it gets what an SDK build in Debug defines.
/// </summary>
internal static class ExtractionOptions
{
    public static Solution Apply(Solution solution, IEnumerable<ProjectEntry> projects)
    {
        foreach (var entry in projects)
        {
            if (solution.GetProject(entry.Id)?.ParseOptions is not CSharpParseOptions options) continue;
            var changed = options;
            if (!options.Features.ContainsKey("run-nullable-analysis"))
                changed = changed.WithFeatures(options.Features.Append(new KeyValuePair<string, string>("run-nullable-analysis", "never")));
            if (!options.PreprocessorSymbolNames.Any())
                changed = changed.WithPreprocessorSymbols(DefaultSymbols(entry.TargetFramework));
            if (!ReferenceEquals(changed, options)) solution = solution.WithProjectParseOptions(entry.Id, changed);
        }
        return solution;
    }

    /// <summary>DEBUG, TRACE and the symbols the SDK defines for a target framework (`net10.0`: NET, NETCOREAPP,
    /// NET10_0, NET5_0_OR_GREATER ... NET10_0_OR_GREATER, NETCOREAPP1_0_OR_GREATER ...; `netstandard2.0`:
    /// NETSTANDARD, NETSTANDARD2_0, NETSTANDARD1_0_OR_GREATER ...; `net48`: NETFRAMEWORK, NET48).</summary>
    public static List<string> DefaultSymbols(string? framework)
    {
        var symbols = new List<string> { "DEBUG", "TRACE" };
        if (framework is null) return symbols;
        if (Regex.Match(framework, @"^net(\d+)\.(\d+)") is { Success: true } modern && Number(modern, 1) >= 5)
        {
            var major = Number(modern, 1);
            symbols.AddRange(["NET", "NETCOREAPP", $"NET{major}_{Number(modern, 2)}"]);
            for (var version = 5; version <= major; version++) symbols.Add($"NET{version}_0_OR_GREATER");
            symbols.AddRange(new[] { "1_0", "1_1", "2_0", "2_1", "2_2", "3_0", "3_1" }.Select(v => $"NETCOREAPP{v}_OR_GREATER"));
        }
        else if (Regex.Match(framework, @"^netstandard(\d)\.(\d)$") is { Success: true } standard)
        {
            var own = $"{Number(standard, 1)}_{Number(standard, 2)}";
            symbols.AddRange(["NETSTANDARD", $"NETSTANDARD{own}"]);
            string[] versions = ["1_0", "1_1", "1_2", "1_3", "1_4", "1_5", "1_6", "2_0", "2_1"];
            symbols.AddRange(versions.Take(Array.IndexOf(versions, own) + 1).Select(v => $"NETSTANDARD{v}_OR_GREATER"));
        }
        else if (Regex.IsMatch(framework, @"^net\d{2,3}$"))
            symbols.AddRange(["NETFRAMEWORK", framework.ToUpperInvariant()]);
        return symbols;
    }

    private static int Number(Match match, int group) => int.Parse(match.Groups[group].Value, CultureInfo.InvariantCulture);
}
