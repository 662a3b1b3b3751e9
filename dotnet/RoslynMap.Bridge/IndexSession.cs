using System.Diagnostics;
using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>
/// The bridge's one public class. Python (pythonnet) opens a solution, then pulls JSON batches
/// until NextBatch returns null. All methods are synchronous and return JSON strings
/// (docs/architecture.md, "Bridge batch format").
/// </summary>
public sealed class IndexSession : IDisposable
{
    private readonly RepoPaths _paths;
    private readonly LoadedWorkspace _loaded;
    private readonly List<(ProjectEntry Project, DocumentId Document)> _queue;
    private readonly Dictionary<int, Compilation> _compilations = new();
    private int _cursor;

    private IndexSession(RepoPaths paths, LoadedWorkspace loaded)
    {
        _paths = paths;
        _loaded = loaded;
        _queue = loaded.Projects.SelectMany(p => p.Documents.Select(d => (p, d))).ToList();
    }

    public static IndexSession Open(string repoRoot, string solutionOrProjectPath)
    {
        var paths = new RepoPaths(repoRoot);
        return new IndexSession(paths, WorkspaceLoader.Load(paths, solutionOrProjectPath));
    }

    public string Describe() => ReportWriter.Describe(_loaded, _paths);

    /// <summary>Extracts the next maxDocs documents (in parallel), or returns null when done.</summary>
    public string? NextBatch(int maxDocs)
    {
        if (_cursor >= _queue.Count) return null;
        var batch = _queue.Skip(_cursor).Take(Math.Max(1, maxDocs)).ToList();
        _cursor += batch.Count;

        var compilations = batch.Select(b => CompilationFor(b.Project)).ToList();
        var results = new DocumentResult[batch.Count];
        Parallel.For(0, batch.Count, Parallelism, i =>
        {
            var (project, docId) = batch[i];
            var document = _loaded.Solution.GetDocument(docId)!;
            results[i] = DocumentExtractor.Extract(project, document, compilations[i], _paths);
        });

        foreach (var result in results)
        foreach (var d in result.Diagnostics)
        {
            if (d.Severity == "error") _loaded.Projects[d.ProjectIndex].CountError(d.File, d.Line, d.Code, d.Message);
        }
        ReleaseFinishedCompilations();
        return BatchWriter.Write(results);
    }

    public string Summary() => ReportWriter.Summary(_loaded.Projects);

    /// <summary>Benchmark floor: bind every document (GetDiagnostics) with the same parallelism
    /// as extraction, and nothing else.</summary>
    public string CompileFloor()
    {
        var clock = Stopwatch.StartNew();
        var count = 0;
        foreach (var project in _loaded.Projects)
        {
            var compilation = _loaded.Solution.GetProject(project.Id)!.GetCompilationAsync().GetAwaiter().GetResult()!;
            Parallel.ForEach(project.Documents, Parallelism, docId =>
            {
                var tree = _loaded.Solution.GetDocument(docId)!.GetSyntaxTreeAsync().GetAwaiter().GetResult()!;
                compilation.GetSemanticModel(tree).GetDiagnostics();
                Interlocked.Increment(ref count);
            });
        }
        var ms = clock.ElapsedMilliseconds;
        return Json.Write(w =>
        {
            w.WriteStartObject();
            w.WriteNumber("documents", count);
            w.WriteNumber("ms", ms);
            w.WriteEndObject();
        });
    }

    /// <summary>Tests only: what SymbolFinder says about a symbol, to compare with the index.</summary>
    public string FindReferences(string symbolId, string projectName) =>
        ReferenceFinder.Find(_loaded, _paths, symbolId, projectName);

    public void Dispose()
    {
        _compilations.Clear();
        _loaded.Workspace.Dispose();
    }

    private static readonly ParallelOptions Parallelism = new() { MaxDegreeOfParallelism = Environment.ProcessorCount };

    private Compilation CompilationFor(ProjectEntry project)
    {
        if (_compilations.TryGetValue(project.Index, out var cached)) return cached;
        var compilation = _loaded.Solution.GetProject(project.Id)!.GetCompilationAsync().GetAwaiter().GetResult()!;
        _compilations[project.Index] = compilation;
        return compilation;
    }

    // The workspace keeps its own caches; this only stops the session from pinning every
    // compilation it has walked past.
    private void ReleaseFinishedCompilations()
    {
        var current = _cursor < _queue.Count ? _queue[_cursor].Project.Index : int.MaxValue;
        foreach (var index in _compilations.Keys.Where(i => i < current).ToList()) _compilations.Remove(index);
    }
}
