using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Diagnostics;
using System.Text.Json;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMap.Bridge;

/// <summary>
/// Workspace overlays: a warm session re-extracts only the documents an agent changed.
///
/// The solution as loaded stays pristine; every UpdateDocuments call forks it afresh with the
/// complete set of overridden texts of one workspace (so workspaces sharing this session never see
/// each other's edits), and ExtractDocuments extracts exactly the named documents of that fork.
/// The pristine compilations are built once (WarmOverlay) so a fork's compilation is an incremental
/// ReplaceSyntaxTree of a finished one rather than a compile from scratch.
/// </summary>
public sealed partial class IndexSession
{
    private Solution? _overlaySolution;
    private ConcurrentDictionary<ProjectId, Lazy<Compilation>> _overlayCompilations = new();
    private bool _overlayWarm;

    /// <summary>Builds the compilation of every project as loaded (declarations, not bodies), so overlay
    /// forks start from finished compilations. Idempotent. Returns {"ms", "projects"}.</summary>
    public string WarmOverlay()
    {
        var clock = Stopwatch.StartNew();
        if (!_overlayWarm)
        {
            // Bounded like extraction: when no project's compilation finishes for the stall limit, fail with
            // the stall message, so the caller redoes the request in a fresh worker instead of hanging.
            var lastProgress = Environment.TickCount64;
            var warm = Task.Run(() => Parallel.ForEach(_loaded.Projects, project =>
            {
                CompilationOf(_extractionSolution, _compilations, project);
                Interlocked.Exchange(ref lastProgress, Environment.TickCount64);
            }));
            var limit = WorkPipeline<object>.StallLimit;
            while (!warm.Wait(TimeSpan.FromSeconds(1)))
            {
                if (Environment.TickCount64 - Interlocked.Read(ref lastProgress) >= limit.TotalMilliseconds)
                    throw new TimeoutException($"{WorkPipeline<object>.StallMessage}: no project's compilation " +
                                               $"finished in {limit.TotalSeconds:0} s while warming the overlay");
            }
            warm.GetAwaiter().GetResult();  // its exception, if any
            _overlayWarm = true;
        }
        var ms = clock.ElapsedMilliseconds;
        return Json.Write(w =>
        {
            w.WriteStartObject();
            w.WriteNumber("ms", ms);
            w.WriteNumber("projects", _loaded.Projects.Count);
            w.WriteEndObject();
        }, 256);
    }

    /// <summary>
    /// Replaces the overlay state with the loaded solution plus these edits:
    /// <c>{"changed": {path: text}, "added": {path: text}, "deleted": [path]}</c> (repo-relative paths).
    /// A "changed" path only replaces the text of a document the solution has; an "added" path becomes a
    /// new document of the project whose folder contains it when the solution does not have it yet.
    /// Returns <c>{"ms", "updated", "removed", "added": [path], "ignored": [path]}</c>.
    /// </summary>
    public string UpdateDocuments(string json)
    {
        var clock = Stopwatch.StartNew();
        WarmOverlay();
        var solution = _extractionSolution;
        var updated = 0;
        var removed = 0;
        var added = new List<string>();
        var ignored = new List<string>();
        using (var doc = JsonDocument.Parse(json))
        {
            var root = doc.RootElement;
            foreach (var (property, mayAdd) in new[] { ("changed", false), ("added", true) })
            {
                if (!root.TryGetProperty(property, out var texts)) continue;
                foreach (var item in texts.EnumerateObject())
                {
                    var path = _paths.Absolute(item.Name);
                    var text = SourceText.From(item.Value.GetString() ?? "");
                    var ids = IndexedDocuments(solution, path).Select(d => d.Document).ToList();
                    if (ids.Count > 0)
                    {
                        foreach (var id in ids) solution = solution.WithDocumentText(id, text);
                        updated += ids.Count;
                        continue;
                    }
                    var project = mayAdd ? ContainingProject(path) : null;
                    if (project is null)
                    {
                        ignored.Add(item.Name);
                        continue;
                    }
                    var newId = DocumentId.CreateNewId(project.Id, path);
                    solution = solution.AddDocument(newId, Path.GetFileName(path), text, Folders(project, path), path);
                    // Lets declarations in the new file count as indexed parts (partial types).
                    project.DocumentPaths.Add(path);
                    added.Add(item.Name);
                }
            }
            if (root.TryGetProperty("deleted", out var deleted))
            {
                foreach (var item in deleted.EnumerateArray())
                {
                    var name = item.GetString() ?? "";
                    var ids = IndexedDocuments(solution, _paths.Absolute(name)).Select(d => d.Document).ToImmutableArray();
                    if (ids.IsEmpty)
                    {
                        ignored.Add(name);
                        continue;
                    }
                    solution = solution.RemoveDocuments(ids);
                    removed += ids.Length;
                }
            }
        }
        _overlaySolution = solution;
        _overlayCompilations = new ConcurrentDictionary<ProjectId, Lazy<Compilation>>();
        var ms = clock.ElapsedMilliseconds;
        return Json.Write(w =>
        {
            w.WriteStartObject();
            w.WriteNumber("ms", ms);
            w.WriteNumber("updated", updated);
            w.WriteNumber("removed", removed);
            w.StringArray("added", added);
            w.StringArray("ignored", ignored);
            w.WriteEndObject();
        }, 1024);
    }

    /// <summary>One batch (the NextBatch format, every section) for exactly these repo-relative paths
    /// (a JSON array), extracted from the state the last UpdateDocuments set. Paths that are not
    /// documents of an indexed project are left out.</summary>
    public byte[] ExtractDocuments(string jsonPaths)
    {
        var paths = JsonSerializer.Deserialize<string[]>(jsonPaths) ?? [];
        var solution = _overlaySolution ?? _extractionSolution;
        var compilations = _overlaySolution is null ? _compilations : _overlayCompilations;
        var work = new List<(ProjectEntry Project, DocumentId Document)>();
        var seen = new HashSet<DocumentId>();
        foreach (var path in paths)
        {
            foreach (var item in IndexedDocuments(solution, _paths.Absolute(path)))
            {
                if (seen.Add(item.Document)) work.Add(item);
            }
        }
        List<DocumentResult> results;
        using (var pipeline = new WorkPipeline<DocumentResult>(work.Count, window: Math.Max(1, work.Count),
                   Math.Min(Workers, Math.Max(1, work.Count)), i =>
                   {
                       var (project, docId) = work[i];
                       return DocumentExtractor.Extract(project, solution.GetDocument(docId)!,
                           CompilationOf(solution, compilations, project), _paths, _facts);
                   }))
        {
            results = work.Count == 0 ? [] : pipeline.Take(work.Count);
        }
        return BatchWriter.Write(results);
    }

    /// <summary>The documents of indexed projects (one project per project file) with this path.</summary>
    private IEnumerable<(ProjectEntry Project, DocumentId Document)> IndexedDocuments(Solution solution, string absolutePath)
    {
        foreach (var id in solution.GetDocumentIdsWithFilePath(absolutePath))
        {
            var project = _loaded.Projects.FirstOrDefault(p => p.Id == id.ProjectId);
            if (project is null) continue;
            var dir = Path.GetDirectoryName(project.FilePath) ?? "";
            if (RepoPaths.IsUnderObj(absolutePath, dir, project.IntermediateDir)) continue;
            yield return (project, id);
        }
    }

    /// <summary>The project whose folder most closely contains a new file (SDK projects compile every
    /// .cs file under their folder), or null when none does or the file is under its bin/ or obj/.</summary>
    private ProjectEntry? ContainingProject(string absolutePath)
    {
        ProjectEntry? best = null;
        var bestLength = -1;
        foreach (var project in _loaded.Projects)
        {
            var dir = Path.GetDirectoryName(project.FilePath);
            if (string.IsNullOrEmpty(dir)) continue;
            var prefix = dir.EndsWith(Path.DirectorySeparatorChar) ? dir : dir + Path.DirectorySeparatorChar;
            if (!absolutePath.StartsWith(prefix, StringComparison.Ordinal) || dir.Length <= bestLength) continue;
            var rel = Path.GetRelativePath(dir, absolutePath).Replace('\\', '/');
            if (rel.StartsWith("obj/", StringComparison.OrdinalIgnoreCase) || rel.StartsWith("bin/", StringComparison.OrdinalIgnoreCase)) continue;
            best = project;
            bestLength = dir.Length;
        }
        return best;
    }

    private static IEnumerable<string> Folders(ProjectEntry project, string absolutePath)
    {
        var dir = Path.GetDirectoryName(project.FilePath) ?? "";
        var rel = Path.GetRelativePath(dir, Path.GetDirectoryName(absolutePath) ?? dir).Replace('\\', '/');
        return rel == "." ? [] : rel.Split('/');
    }
}
