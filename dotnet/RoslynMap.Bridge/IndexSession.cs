using System.Collections.Concurrent;
using System.Diagnostics;
using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>
/// The bridge's one public class. Python (pythonnet) opens a solution, then pulls JSON batches
/// until NextBatch returns null. All methods are synchronous and return JSON (batches as UTF-8 bytes)
/// (docs/architecture.md, "Bridge batch format").
/// </summary>
public sealed partial class IndexSession : IDisposable
{
    private readonly RepoPaths _paths;
    private readonly LoadedWorkspace _loaded;
    private readonly List<(ProjectEntry Project, DocumentId Document)> _queue;
    private readonly Solution _extractionSolution;
    private readonly ConcurrentDictionary<ProjectId, Lazy<Compilation>> _compilations = new();
    // The full index's compilations: each project's, set up to bind each body once (SharedBinding).
    private readonly ConcurrentDictionary<ProjectId, Lazy<Compilation>> _sharedCompilations = new();
    // One buffer for every batch's JSON, reused (locked: a caller could call NextBatch from two threads).
    private readonly System.Buffers.ArrayBufferWriter<byte> _batchBuffer = new(256 * 1024);
    // ROSLYNMAP_NO_FACTS=1 switches fact extraction off (to measure what it costs).
    private readonly bool _facts = Environment.GetEnvironmentVariable("ROSLYNMAP_NO_FACTS") is not "1";
    private WorkPipeline<DocumentResult>? _extraction;
    // What the current project's generated-use shares recorded, (symbol, generated member): a pair two shares both
    // find is kept from the first, in input order, as one pass over the project keeps it (GeneratedUses). A project's
    // shares arrive one after another, so only one project's pairs are held.
    private readonly HashSet<(string Symbol, string From)> _generatedSeen = new();
    private int _generatedProject = -1;
    // Each project's declared-name lookups, shared by its shares.
    private readonly ConcurrentDictionary<ProjectId, GeneratedUses.DeclaredNames> _declaredNames = new();

    private IndexSession(RepoPaths paths, LoadedWorkspace loaded)
    {
        _paths = paths;
        _loaded = loaded;
        _queue = loaded.Projects.SelectMany(p => p.Documents.Select(d => (p, d))).ToList();
        _extractionSolution = ExtractionOptions.Apply(loaded.Solution, loaded.Projects);
    }

    public static IndexSession Open(string repoRoot, string solutionOrProjectPath) =>
        Open(repoRoot, solutionOrProjectPath, null);

    /// <summary>`frameworks`: {"framework": tfm, "frameworks": {project: tfm}} chosen by the caller; it
    /// overrides the repository's roslynmap.json (docs/tools.md, "Target frameworks").</summary>
    public static IndexSession Open(string repoRoot, string solutionOrProjectPath, string? frameworks) =>
        Open(repoRoot, solutionOrProjectPath, frameworks, null);

    /// <summary>`linksTo`: `repoRoot` is a mirror made of symbolic links into that folder, the repository
    /// itself (opened so when its global.json pins an SDK that is not installed:
    /// python/roslynmap/roslyn/sdkpin.py). Paths stay relative to the mirror, which are the repository's own.</summary>
    public static IndexSession Open(string repoRoot, string solutionOrProjectPath, string? frameworks, string? linksTo)
    {
        var paths = new RepoPaths(repoRoot, linksTo);
        _ = AllocationListener.Instance; // ROSLYNMAP_PROFILE=alloc: listening from the load on
        return new IndexSession(paths, WorkspaceLoader.Load(paths, solutionOrProjectPath, FrameworkRequest.Read(paths.Root, frameworks)));
    }

    /// <summary>A Unity project (`marker`: its ProjectSettings/ProjectVersion.txt), its assemblies described by
    /// `unitySpec` (python/roslynmap/roslyn/unity.py), loaded without MSBuild (UnityLoader).</summary>
    public static IndexSession OpenUnity(string repoRoot, string marker, string unitySpec)
    {
        var paths = new RepoPaths(repoRoot);
        _ = AllocationListener.Instance;
        return new IndexSession(paths, UnityLoader.Load(paths, marker, unitySpec));
    }

    public string Describe() => ReportWriter.Describe(_loaded, _paths);

    /// <summary>The next maxDocs documents, or null when done. Extraction runs ahead on worker
    /// threads, so the following batch is being built while the caller stores this one.</summary>
    public byte[]? NextBatch(int maxDocs)
    {
        maxDocs = Math.Max(1, maxDocs);
        // After the documents, GeneratedShares items per project: what its source generators' output uses
        // (GeneratedUses), each a contiguous share of the generated documents, so one project with a thousand
        // Razor components (MudBlazor's docs) does not leave the other cores idle at the end.
        _extraction ??= new WorkPipeline<DocumentResult>(_queue.Count + (_facts ? _loaded.Projects.Count * GeneratedShares : 0),
            window: 2 * maxDocs, Workers, ExtractAt, DescribeDocument);
        if (_extraction.Done) return null;

        var results = _extraction.Take(maxDocs);
        foreach (var result in results)
        {
            if (result.GeneratedKeys is { } keys) KeepFirstGeneratedUses(result, keys);
            foreach (var d in result.Diagnostics)
            {
                if (d.Severity == "error") _loaded.Projects[d.ProjectIndex].CountError(d.File, d.Line, d.Code, d.Message);
            }
            // The evidence for the semantic level: how many references bound.
            foreach (var r in result.Refs)
            {
                var project = _loaded.Projects[r.ProjectIndex];
                if (r.TargetSymbolId is null) project.UnresolvedReferences++;
                else project.ResolvedReferences++;
            }
        }
        var cpu = Profile.Now();
        byte[] json;
        lock (_batchBuffer) json = BatchWriter.Write(_batchBuffer, results);
        Profile.Lap("batch.json", cpu);
        return json;
    }

    /// <summary>bench/index_split.py: CPU seconds per extraction phase (ROSLYNMAP_PROFILE=1).</summary>
    public static string ProfileReport() => Profile.Report();

    public string Summary() => ReportWriter.Summary(_loaded.Projects);

    /// <summary>Benchmark floor: bind every document (GetDiagnostics) of the solution exactly as
    /// loaded (nullable analysis included), on the same worker setup as extraction, and nothing else.</summary>
    public string CompileFloor() => CompileFloor(false);

    /// <summary>`asIndexed`: with the options extraction compiles with (ExtractionOptions: nullable
    /// analysis off), so the index/floor ratio compares like with like.</summary>
    public string CompileFloor(bool asIndexed)
    {
        var clock = Stopwatch.StartNew();
        var solution = asIndexed ? _extractionSolution : _loaded.Solution;
        var compilations = new ConcurrentDictionary<ProjectId, Lazy<Compilation>>();
        using var floor = new WorkPipeline<object>(_queue.Count, window: _queue.Count, Workers, i =>
        {
            var (project, docId) = _queue[i];
            var cpu = Profile.Now();
            var tree = solution.GetDocument(docId)!.GetSyntaxTreeAsync().GetAwaiter().GetResult()!;
            var model = CompilationOf(solution, compilations, project).GetSemanticModel(tree);
            cpu = Profile.Lap("floor.tree", cpu);
            model.GetDiagnostics();
            Profile.Lap("floor.diagnostics", cpu);
            return project;
        });
        var count = floor.Take(_queue.Count).Count;
        var ms = clock.ElapsedMilliseconds;
        return Json.Write(w =>
        {
            w.WriteStartObject();
            w.WriteNumber("documents", count);
            w.WriteNumber("ms", ms);
            w.WriteString("options", asIndexed ? "indexed" : "loaded");
            w.WriteEndObject();
        });
    }

    /// <summary>Tests only: what SymbolFinder says about a symbol, to compare with the index.</summary>
    public string FindReferences(string symbolId, string projectName) =>
        ReferenceFinder.Find(_loaded, _paths, symbolId, projectName);

    public void Dispose()
    {
        _extraction?.Dispose();
        _compilations.Clear();
        _sharedCompilations.Clear();
        _declaredNames.Clear();
        _loaded.Workspace.Dispose();
    }

    private static int Workers => Environment.ProcessorCount;
    private static int GeneratedShares => Workers;

    private DocumentResult ExtractAt(int index)
    {
        if (index >= _queue.Count)
        {
            var item = index - _queue.Count;
            return ExtractGeneratedUses(_loaded.Projects[item / GeneratedShares], SharedCompilationOf, item % GeneratedShares, GeneratedShares);
        }
        var (project, docId) = _queue[index];
        var document = _extractionSolution.GetDocument(docId)!;
        var cpu = Profile.Now();
        var compilation = SharedCompilationOf(project);
        Profile.Lap("extract.compilation", cpu);
        try
        {
            return DocumentExtractor.Extract(project, document, compilation, _paths, _facts);
        }
        finally
        {
            if (document.TryGetSyntaxTree(out var tree)) SharedBinding.Release(compilation, tree);
        }
    }

    private Compilation SharedCompilationOf(ProjectEntry project) =>
        _sharedCompilations.GetOrAdd(project.Id, _ => new Lazy<Compilation>(() =>
            SharedBinding.Enable(CompilationOf(_extractionSolution, _compilations, project)))).Value;

    /// <summary>One share of a project's GeneratedUse facts (share `share` of `shares` of its generated documents),
    /// its generated trees bound with `compilationOf(project)` (the compilation its documents are bound with); the
    /// names of the indexed projects it depends on count too.</summary>
    private DocumentResult ExtractGeneratedUses(ProjectEntry project, Func<ProjectEntry, Compilation> compilationOf, int share, int shares)
    {
        var roslynProject = _extractionSolution.GetProject(project.Id);
        if (roslynProject is null || !project.HasMetadataReferences) return new DocumentResult();
        var compilation = compilationOf(project);
        var names = _declaredNames.GetOrAdd(project.Id, _ =>
        {
            var upstream = _extractionSolution.GetProjectDependencyGraph().GetProjectsThatThisProjectTransitivelyDependsOn(project.Id);
            var others = _loaded.Projects.Where(p => upstream.Contains(p.Id))
                .Select(p => CompilationOf(_extractionSolution, _compilations, p)).ToList();
            return new GeneratedUses.DeclaredNames(compilation, others, IndexedPaths);
        });
        return GeneratedUses.Extract(project, roslynProject, compilation, names, IndexedPaths, _paths, share, shares);
    }

    /// <summary>Drops the GeneratedUse facts an earlier share of the same project recorded already (results arrive in
    /// input order, so the survivor is the one a single pass would keep).</summary>
    private void KeepFirstGeneratedUses(DocumentResult result, List<(string Symbol, string From)> keys)
    {
        var facts = result.Facts.ToList();
        result.Facts.Clear();
        for (var i = 0; i < facts.Count; i++)
        {
            if (facts[i].ProjectIndex != _generatedProject)
            {
                _generatedSeen.Clear();
                _generatedProject = facts[i].ProjectIndex;
            }
            if (_generatedSeen.Add(keys[i])) result.Facts.Add(facts[i]);
        }
    }

    private HashSet<string>? _indexedPaths;

    /// <summary>Every indexed document's absolute path: a symbol declared there is the solution's own.</summary>
    private HashSet<string> IndexedPaths => LazyInitializer.EnsureInitialized(ref _indexedPaths,
        () => _loaded.Projects.SelectMany(p => p.DocumentPaths).ToHashSet(StringComparer.Ordinal));

    // Roslyn builds a compilation once however many threads ask; Lazy keeps us from asking twice.
    private static Compilation CompilationOf(Solution solution, ConcurrentDictionary<ProjectId, Lazy<Compilation>> cache, ProjectEntry project) =>
        cache.GetOrAdd(project.Id, id => new Lazy<Compilation>(() =>
            solution.GetProject(id)!.GetCompilationAsync().GetAwaiter().GetResult()!)).Value;
}
