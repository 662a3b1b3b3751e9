using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>JSON for Describe() and Summary().</summary>
internal static class ReportWriter
{
    public static string Describe(LoadedWorkspace loaded, RepoPaths paths) => Json.Write(w =>
    {
        w.WriteStartObject();
        w.WriteString("solution", loaded.SolutionPath);
        w.WriteNumber("load_ms", loaded.LoadMs);
        w.WriteString("roslyn_version", RoslynVersion);
        w.StringArray("workspace_diagnostics", loaded.WorkspaceDiagnostics);
        w.StringArray("missing_reference_codes", ProjectEntry.MissingReferenceCodes.Order());
        w.WriteStartArray("projects");
        foreach (var p in loaded.Projects)
        {
            w.WriteStartObject();
            w.WriteNumber("index", p.Index);
            w.WriteString("name", p.Name);
            w.WriteString("path", paths.Relative(p.FilePath));
            w.WriteString("target_framework", p.TargetFramework);
            w.StringArray("target_frameworks", p.TargetFrameworks);
            w.WriteNumber("documents", p.Documents.Count);
            w.WriteBoolean("restored", p.Restored);
            w.StringArray("load_errors", p.LoadErrors);
            w.WriteEndObject();
        }
        w.WriteEndArray();
        w.WriteEndObject();
    });

    public static string Summary(IEnumerable<ProjectEntry> projects) => Json.Write(w =>
    {
        w.WriteStartObject();
        w.WriteStartArray("projects");
        foreach (var p in projects)
        {
            w.WriteStartObject();
            w.WriteNumber("index", p.Index);
            w.WriteNumber("error_count", p.ErrorCount);
            w.WriteNumber("missing_reference_errors", p.MissingReferenceErrors);
            w.StringArray("first_errors", p.FirstErrors);
            w.WriteString("semantic_level", p.SemanticLevel);
            w.WriteEndObject();
        }
        w.WriteEndArray();
        w.WriteEndObject();
    });

    private static string RoslynVersion
    {
        get
        {
            var asm = typeof(Compilation).Assembly;
            var info = asm.GetCustomAttributes(typeof(System.Reflection.AssemblyInformationalVersionAttribute), false)
                .OfType<System.Reflection.AssemblyInformationalVersionAttribute>().FirstOrDefault()?.InformationalVersion;
            return info ?? asm.GetName().Version?.ToString() ?? "";
        }
    }
}
