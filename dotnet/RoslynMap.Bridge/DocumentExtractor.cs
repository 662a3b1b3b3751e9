using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>Extraction of one document: its compile errors, then the single syntax walk.</summary>
internal static class DocumentExtractor
{
    public const int MaxWarnings = 100;

    public static DocumentResult Extract(ProjectEntry project, Document document, Compilation compilation, RepoPaths paths, bool facts)
    {
        var result = new DocumentResult();
        var file = paths.Relative(document.FilePath);
        var cpu = Profile.Now();
        try
        {
            var tree = document.GetSyntaxTreeAsync().GetAwaiter().GetResult()!;
            var text = tree.GetText();
            result.File = new FileRow(file, project.Index, text.Lines.Count);
            var model = compilation.GetSemanticModel(tree);
            cpu = Profile.Lap("extract.tree", cpu);

            // GetDiagnostics binds every body (and warms the compilation for the walk). Roslyn
            // returns declaration errors before body errors; rows are put in source order. Errors
            // and warnings are stored (diagnostics_list); warnings at most MaxWarnings per document,
            // so a file of generated code cannot swell the baseline.
            var found = model.GetDiagnostics()
                .Where(d => d.Severity is DiagnosticSeverity.Error or DiagnosticSeverity.Warning)
                .OrderBy(d => d.Location.SourceSpan.Start);
            var warnings = 0;
            foreach (var d in found)
            {
                var error = d.Severity == DiagnosticSeverity.Error;
                if (!error && ++warnings > MaxWarnings) continue;
                var pos = d.Location.GetLineSpan().StartLinePosition;
                result.Diagnostics.Add(new DiagnosticRow(project.Index, file, pos.Line + 1, pos.Character + 1,
                    error ? "error" : "warning", d.Id, d.GetMessage()));
            }

            cpu = Profile.Lap("extract.diagnostics", cpu);
            if (Profile.Prebind)
            {
                Profile.BindAll(model, tree.GetRoot());
                cpu = Profile.Lap("extract.prebind", cpu);
            }
            var ctx = new DocumentContext
            {
                Project = project, Model = model, Tree = tree, Text = text, File = file, Result = result, Facts = facts,
            };
            if (!Profile.SkipWalk) new DocumentWalker(ctx).Walk(tree.GetRoot());
            Profile.Lap("extract.walk", cpu);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // One bad document must not sink the batch; the failure is reported, not counted as a compile error.
            result.File ??= new FileRow(file, project.Index, 0);
            result.Diagnostics.Add(new DiagnosticRow(project.Index, file, 1, 1, "internal", "RM0001",
                $"extraction failed: {ex.GetType().Name}: {ex.Message}"));
        }
        return result;
    }
}
