using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMap.Bridge;

/// <summary>
/// A project MSBuild could not evaluate (a custom SDK that cannot be had, a broken import) loads with no
/// documents, and everything it declares would vanish from the index. Instead its .cs files on disk are
/// added to it, so what the syntax alone shows survives (symbols, attribute routes, literal config keys).
/// Such a project has no metadata references, so its level is syntax_only by the usual rule; the entry
/// says why (ProjectEntry.SourcesFromDisk).
/// </summary>
internal static class SourceFallback
{
    private static readonly HashSet<string> SkippedFolders = new(StringComparer.OrdinalIgnoreCase) { "bin", "obj", "node_modules" };

    public static (Solution Solution, HashSet<ProjectId> Filled) AddSources(Solution solution, RepoPaths paths)
    {
        var filled = new HashSet<ProjectId>();
        var owned = new HashSet<string>(StringComparer.Ordinal);
        foreach (var project in solution.Projects)
        foreach (var doc in project.Documents)
            if (doc.FilePath is not null) owned.Add(doc.FilePath);

        foreach (var projectId in solution.ProjectIds.ToList())
        {
            var project = solution.GetProject(projectId)!;
            if (project.Language != LanguageNames.CSharp || project.FilePath is null || !File.Exists(project.FilePath)) continue;
            if (project.Documents.Any(d => d.SourceCodeKind == SourceCodeKind.Regular)) continue;
            var dir = Path.GetDirectoryName(project.FilePath)!;
            foreach (var file in SourceFiles(dir, paths))
            {
                if (!owned.Add(file)) continue;
                var text = SourceText.From(File.ReadAllText(file), System.Text.Encoding.UTF8);
                solution = solution.AddDocument(DocumentId.CreateNewId(projectId), Path.GetFileName(file), text, filePath: file);
                filled.Add(projectId);
            }
        }
        return (solution, filled);
    }

    /// <summary>The project folder's .cs files, without build output, hidden folders or nested projects,
    /// and never a file whose real path leaves the repository (docs/security.md).</summary>
    private static IEnumerable<string> SourceFiles(string dir, RepoPaths paths)
    {
        var pending = new Stack<string>();
        pending.Push(dir);
        while (pending.Count > 0)
        {
            var folder = pending.Pop();
            string[] files, folders;
            try
            {
                files = Directory.GetFiles(folder, "*.cs");
                folders = Directory.GetDirectories(folder);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                continue;
            }
            foreach (var file in files.Order(StringComparer.Ordinal))
                if (paths.IsInside(file)) yield return file;
            foreach (var sub in folders.OrderDescending(StringComparer.Ordinal))
            {
                var name = Path.GetFileName(sub);
                if (name.StartsWith('.') || SkippedFolders.Contains(name)) continue;
                if (new DirectoryInfo(sub).LinkTarget is not null) continue;
                if (Directory.EnumerateFiles(sub, "*.csproj").Any()) continue; // another project's folder
                pending.Push(sub);
            }
        }
    }
}
