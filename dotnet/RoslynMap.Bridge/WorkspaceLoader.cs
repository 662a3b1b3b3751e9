using System.Diagnostics;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;

namespace RoslynMap.Bridge;

/// <summary>The opened solution and what loading it said.</summary>
internal sealed class LoadedWorkspace
{
    public required Workspace Workspace;          // MSBuildWorkspace, or AdhocWorkspace for a Unity project
    public required Solution Solution;
    public required string SolutionPath;          // repo-relative
    public required List<ProjectEntry> Projects;
    public required List<string> WorkspaceDiagnostics;
    public required long LoadMs;
    public required FrameworkRequest Frameworks;
}

/// <summary>
/// Opens a .slnx/.sln/.csproj with MSBuildWorkspace. Every workspace diagnostic is kept: it goes to
/// the project whose file it names, otherwise to the workspace list.
/// </summary>
internal static partial class WorkspaceLoader
{
    public static LoadedWorkspace Load(RepoPaths paths, string solutionOrProject, FrameworkRequest frameworks)
    {
        var full = paths.Absolute(solutionOrProject);
        if (!File.Exists(full)) throw new FileNotFoundException("solution or project not found", full);

        var clock = Stopwatch.StartNew();
        var workspace = MSBuildWorkspace.Create();
        var failures = new List<WorkspaceDiagnostic>();
        using var registration = workspace.RegisterWorkspaceFailedHandler(e =>
        {
            lock (failures) failures.Add(e.Diagnostic);
        });

        var ext = Path.GetExtension(full).ToLowerInvariant();
        // Bounded: a build host that dies mid-request would otherwise leave this waiting forever (LoadWatch).
        string Seen() { lock (failures) return string.Join(" | ", failures.Take(3).Select(f => f.Message)); }
        var solution = ext is ".sln" or ".slnx" or ".slnf"
            ? LoadWatch.Run(full, (progress, token) => workspace.OpenSolutionAsync(full, progress, token), Seen)
            : LoadWatch.Run(full, async (progress, token) =>
                (await workspace.OpenProjectAsync(full, progress, token).ConfigureAwait(false)).Solution, Seen);

        var workspaceDiagnostics = new List<string>();
        var (withSources, fromDisk) = SourceFallback.AddSources(solution, paths);
        solution = withSources;
        var projects = CollectProjects(solution, workspaceDiagnostics, frameworks);
        foreach (var entry in projects) entry.SourcesFromDisk = fromDisk.Contains(entry.Id);
        List<WorkspaceDiagnostic> snapshot;
        lock (failures) snapshot = failures.ToList();
        Attribute(snapshot, projects, workspaceDiagnostics);

        return new LoadedWorkspace
        {
            Workspace = workspace,
            Solution = solution,
            SolutionPath = paths.Relative(full),
            Projects = projects,
            WorkspaceDiagnostics = workspaceDiagnostics,
            LoadMs = clock.ElapsedMilliseconds,
            Frameworks = frameworks,
        };
    }

    private static List<ProjectEntry> CollectProjects(Solution solution, List<string> workspaceDiagnostics, FrameworkRequest request)
    {
        // Multi-targeting loads one Project per target framework: group them by project file, in load order.
        var groups = new List<(string File, List<(Project Project, string Name, string Tfm)> Variants)>();
        var byFile = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        foreach (var project in solution.Projects)
        {
            if (project.FilePath is null) continue;
            var (name, tfm) = SplitName(project);
            if (project.Language != LanguageNames.CSharp)
            {
                workspaceDiagnostics.Add($"Skipped non-C# project {name} ({project.Language}): {project.FilePath}");
                continue;
            }
            if (!byFile.TryGetValue(project.FilePath, out var at))
            {
                byFile[project.FilePath] = at = groups.Count;
                groups.Add((project.FilePath, []));
            }
            groups[at].Variants.Add((project, name, tfm));
        }

        foreach (var (_, variants) in groups)
        {
            // `<TargetFrameworks>net451;netstandard2.0;</TargetFrameworks>` (Hangfire): the trailing `;` loads one more
            // Project with no framework, which is no target framework to choose or to list as skipped.
            if (variants.Any(v => v.Tfm.Length > 0)) variants.RemoveAll(v => v.Tfm.Length == 0);
        }
        var entries = new List<ProjectEntry>();
        var requestSource = request.Sources.Count > 0 ? string.Join(" + ", request.Sources) : "request";
        foreach (var (file, variants) in groups)
        {
            var name = variants[0].Name;
            var choice = FrameworkChooser.Choose(
                variants.Select(v => new FrameworkChooser.Variant(v.Project, v.Tfm, FrameworkChooser.CoreResolves(v.Project))).ToList(),
                request.For(name), requestSource);
            var project = choice.Chosen.Project;
            var dir = Path.GetDirectoryName(file) ?? "";
            var assets = RestoreState.AssetsFile(project);
            var intermediate = Path.GetDirectoryName(assets);
            var documents = new List<DocumentId>();
            var documentPaths = new HashSet<string>(StringComparer.Ordinal);
            foreach (var doc in project.Documents)
            {
                if (doc.FilePath is null || doc.SourceCodeKind != SourceCodeKind.Regular) continue;
                if (RepoPaths.IsUnderObj(doc.FilePath, dir, intermediate)) continue;
                if (!documentPaths.Add(doc.FilePath)) continue;
                documents.Add(doc.Id);
            }
            entries.Add(new ProjectEntry
            {
                Index = entries.Count,
                Id = project.Id,
                Name = name,
                FilePath = file,
                TargetFrameworks = variants.Select(v => v.Tfm).Where(t => t.Length > 0).Distinct().ToList(),
                TargetFramework = choice.Chosen.Tfm,
                FrameworkChoice = choice.How,
                SkippedFrameworks = choice.Skipped,
                Restored = assets is not null && File.Exists(assets),
                AssetsFile = assets,
                UnresolvedPackages = RestoreState.UnresolvedPackages(assets, choice.Chosen.Tfm),
                IntermediateDir = intermediate,
                Documents = documents,
                DocumentPaths = documentPaths,
                HasMetadataReferences = project.MetadataReferences.Count > 0,
                CoreLibraryResolved = choice.Chosen.CoreResolved,
            });
        }
        return entries;
    }

    /// <summary>"Shop.Api(net8.0)" → ("Shop.Api", "net8.0"); otherwise the TFM is read from the
    /// output path (bin/Debug/net10.0/Shop.Api.dll).</summary>
    private static (string Name, string Tfm) SplitName(Project project)
    {
        var m = NameWithTfm().Match(project.Name);
        if (m.Success) return (m.Groups[1].Value, m.Groups[2].Value);
        var outputDir = Path.GetFileName(Path.GetDirectoryName(project.OutputFilePath ?? "") ?? "");
        if (LooksLikeTfm().IsMatch(outputDir)) return (project.Name, outputDir);
        return (project.Name, TfmFromSymbols(project) ?? DeclaredTfm(project.FilePath));
    }

    /// <summary>The TFM the SDK's preprocessor symbols name (`NET9_0` → net9.0, `NETSTANDARD2_0` → netstandard2.0,
    /// `NET472` → net472): grandnode's plugins write their output elsewhere and take the TFM from an imported props.</summary>
    private static string? TfmFromSymbols(Project project)
    {
        foreach (var symbol in project.ParseOptions?.PreprocessorSymbolNames ?? [])
        {
            var m = FrameworkSymbol().Match(symbol);
            if (!m.Success) continue;
            var family = m.Groups[1].Value.ToLowerInvariant();
            var version = m.Groups[2].Value;
            if (family == "net" && !version.Contains('_')) return "net" + version;  // net472
            return family + version.Replace('_', '.');
        }
        return null;
    }

    [GeneratedRegex(@"^(NETCOREAPP|NETSTANDARD|NET)(\d+(?:_\d+)?)$")]
    private static partial Regex FrameworkSymbol();

    /// <summary>Last resort: the &lt;TargetFramework&gt; written in the project file itself.</summary>
    private static string DeclaredTfm(string? projectFile)
    {
        try
        {
            if (projectFile is null || !File.Exists(projectFile)) return "";
            var m = DeclaredTfmElement().Match(File.ReadAllText(projectFile));
            return m.Success ? m.Groups[1].Value.Trim() : "";
        }
        catch (IOException)
        {
            return "";
        }
    }

    private static void Attribute(List<WorkspaceDiagnostic> diagnostics, List<ProjectEntry> projects, List<string> workspaceDiagnostics)
    {
        foreach (var d in diagnostics)
        {
            var text = d.Kind == WorkspaceDiagnosticKind.Failure ? d.Message : "warning: " + d.Message;
            var owner = projects.FirstOrDefault(p => d.Message.Contains(p.FilePath, StringComparison.OrdinalIgnoreCase));
            // MSBuild repeats a failure for each evaluation that meets it (bitwarden/server: an SDK it cannot
            // resolve, nine times with an empty file name): each distinct message once.
            if (owner is null)
            {
                if (!workspaceDiagnostics.Contains(text)) workspaceDiagnostics.Add(text);
                continue;
            }
            if (!owner.LoadErrors.Contains(text)) owner.LoadErrors.Add(text);
            if (d.Kind == WorkspaceDiagnosticKind.Failure) owner.LoadFailed = true;
        }
    }

    [GeneratedRegex(@"^(.*)\(([^()]+)\)$")]
    private static partial Regex NameWithTfm();

    [GeneratedRegex(@"<TargetFramework>\s*([^<$;]+?)\s*</TargetFramework>")]
    private static partial Regex DeclaredTfmElement();

    [GeneratedRegex(@"^(net\d|netstandard|netcoreapp)", RegexOptions.IgnoreCase)]
    private static partial Regex LooksLikeTfm();
}
