using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>Extraction of one document: its compile errors, then the single syntax walk.</summary>
internal static class DocumentExtractor
{
    public static DocumentResult Extract(ProjectEntry project, Document document, Compilation compilation, RepoPaths paths, bool facts)
    {
        var result = new DocumentResult();
        var file = paths.Relative(document.FilePath);
        try
        {
            var tree = document.GetSyntaxTreeAsync().GetAwaiter().GetResult()!;
            var text = tree.GetText();
            result.File = new FileRow(file, project.Index, text.Lines.Count);
            var model = compilation.GetSemanticModel(tree);

            // GetDiagnostics binds every body (and warms the compilation for the walk). Roslyn
            // returns declaration errors before body errors; rows are put in source order.
            var errors = model.GetDiagnostics()
                .Where(d => d.Severity == DiagnosticSeverity.Error)
                .OrderBy(d => d.Location.SourceSpan.Start);
            foreach (var d in errors)
            {
                var pos = d.Location.GetLineSpan().StartLinePosition;
                result.Diagnostics.Add(new DiagnosticRow(project.Index, file, pos.Line + 1, pos.Character + 1, "error", d.Id, d.GetMessage()));
            }

            var ctx = new DocumentContext
            {
                Project = project, Model = model, Tree = tree, Text = text, File = file, Result = result, Facts = facts,
            };
            new DocumentWalker(ctx).Walk(tree.GetRoot());
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
