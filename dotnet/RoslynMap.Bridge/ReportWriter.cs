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
        w.StringArray("framework_request_sources", loaded.Frameworks.Sources);
        w.WriteStartArray("projects");
        foreach (var p in loaded.Projects)
        {
            w.WriteStartObject();
            w.WriteNumber("index", p.Index);
            w.WriteString("name", p.Name);
            w.WriteString("path", paths.Relative(p.FilePath));
            w.WriteString("target_framework", p.TargetFramework);
            w.StringArray("target_frameworks", p.TargetFrameworks);
            w.WriteString("framework_choice", p.FrameworkChoice);
            w.WriteStartArray("skipped_frameworks");
            foreach (var skipped in p.SkippedFrameworks)
            {
                w.WriteStartObject();
                w.WriteString("framework", skipped.Framework);
                w.WriteString("reason", skipped.Reason);
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteNumber("documents", p.Documents.Count);
            w.WriteBoolean("restored", p.Restored);
            if (p.AssetsFile is null) w.WriteNull("assets_file");
            else w.WriteString("assets_file", paths.Relative(p.AssetsFile));
            w.WriteBoolean("core_library_resolved", p.CoreLibraryResolved);
            w.StringArray("load_errors", p.LoadErrors);
            // The dependency graph (projects_graph): referenced project files, and exe or library.
            var project = loaded.Solution.GetProject(p.Id);
            w.StringArray("project_references", (project?.ProjectReferences ?? [])
                .Select(r => loaded.Solution.GetProject(r.ProjectId)?.FilePath)
                .OfType<string>().Select(paths.Relative).Distinct().Order(StringComparer.Ordinal).ToList());
            w.WriteString("output_kind", project?.CompilationOptions?.OutputKind switch
            {
                null => null,
                OutputKind.DynamicallyLinkedLibrary or OutputKind.NetModule => "Library",
                _ => "Exe",
            });
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
            w.WriteNumber("resolved_references", p.ResolvedReferences);
            w.WriteNumber("unresolved_references", p.UnresolvedReferences);
            w.WriteBoolean("core_library_resolved", p.CoreLibraryResolved);
            w.WriteString("semantic_level", p.SemanticLevel);
            w.WriteString("level_reason", p.LevelReason);
            w.StringArray("unresolved_packages", p.UnresolvedPackages); // store/levels.py recounts a derived baseline's
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
