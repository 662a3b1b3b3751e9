using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace RoslynMap.Bridge;

/// <summary>
/// The solution extraction binds against. Nullable analysis is switched off (Roslyn's
/// "run-nullable-analysis=never" parse feature): it only adds warnings and nullability
/// annotations, none of which the index records, yet it re-walks every member a second time both
/// for GetDiagnostics and for the semantic model. The only errors lost are nullable warnings a
/// project promotes to errors (WarningsAsErrors=nullable).
/// </summary>
internal static class ExtractionOptions
{
    public static Solution Apply(Solution solution, IEnumerable<ProjectEntry> projects)
    {
        foreach (var entry in projects)
        {
            if (solution.GetProject(entry.Id)?.ParseOptions is not CSharpParseOptions options) continue;
            if (options.Features.ContainsKey("run-nullable-analysis")) continue;
            var features = options.Features.Append(new KeyValuePair<string, string>("run-nullable-analysis", "never"));
            solution = solution.WithProjectParseOptions(entry.Id, options.WithFeatures(features));
        }
        return solution;
    }
}
