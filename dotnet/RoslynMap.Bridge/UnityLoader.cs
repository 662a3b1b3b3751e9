using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text.Json;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMap.Bridge;

/// <summary>
/// A Unity project has no project files in its repository (Unity generates them locally), so it is built
/// here, with no MSBuild, as an in-memory workspace from the assemblies Python read off Unity's layout
/// (python/roslynmap/roslyn/unity.py): one project per .asmdef and per predefined assembly (Assembly-CSharp...),
/// their references to each other, Unity's define symbols, C# 9. UnityEngine, UnityEditor and the packages
/// Unity keeps outside the repository ship with the editor, not NuGet: they are not here, so the projects bind
/// against the .NET reference assemblies this machine has, their Unity types stay unbound and the levels say
/// `partial` by the usual rule; calls among the game's own classes bind.
/// </summary>
internal static class UnityLoader
{
    public const string NotAvailable =
        "Unity's own assemblies (UnityEngine, UnityEditor, the packages in Library/PackageCache) are not available " +
        "outside the Unity editor: their types are unbound";

    private sealed record Spec(string Name, string Path, List<string> Files, List<string> References,
        List<string> Missing, bool AllowUnsafe, bool Editor, List<string> Defines);

    public static LoadedWorkspace Load(RepoPaths paths, string marker, string specJson)
    {
        var clock = Stopwatch.StartNew();
        using var json = JsonDocument.Parse(specJson);
        var root = json.RootElement;
        var defines = Strings(root, "defines");
        var specs = root.GetProperty("projects").EnumerateArray().Select(p => new Spec(
            p.GetProperty("name").GetString()!, p.GetProperty("path").GetString()!, Strings(p, "files"),
            Strings(p, "references"), Strings(p, "missing"), p.GetProperty("allow_unsafe").GetBoolean(),
            p.GetProperty("editor").GetBoolean(), Strings(p, "defines"))).ToList();

        var (framework, references) = ReferenceAssemblies();
        var parseOptions = new CSharpParseOptions(LanguageVersion.CSharp9, preprocessorSymbols: defines);
        var ids = specs.ToDictionary(s => s.Name, s => ProjectId.CreateNewId(s.Name));
        var projects = new List<ProjectInfo>();
        foreach (var spec in specs)
        {
            var documents = new List<DocumentInfo>();
            foreach (var file in spec.Files)
            {
                var full = paths.Absolute(file);
                if (!paths.IsInside(full) || !File.Exists(full)) continue;  // docs/security.md: never read outside
                var text = SourceText.From(File.ReadAllText(full), System.Text.Encoding.UTF8);
                documents.Add(DocumentInfo.Create(DocumentId.CreateNewId(ids[spec.Name], full), System.IO.Path.GetFileName(full),
                    loader: TextLoader.From(TextAndVersion.Create(text, VersionStamp.Default, full)), filePath: full));
            }
            projects.Add(ProjectInfo.Create(ids[spec.Name], VersionStamp.Default, spec.Name, spec.Name, LanguageNames.CSharp,
                filePath: paths.Absolute(spec.Path),
                compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary,
                    allowUnsafe: spec.AllowUnsafe, nullableContextOptions: NullableContextOptions.Disable),
                // Its versionDefines that hold here (python/roslynmap/roslyn/unity.py) beside Unity's own symbols.
                parseOptions: spec.Defines.Count == 0 ? parseOptions : parseOptions.WithPreprocessorSymbols(defines.Concat(spec.Defines)),
                documents: documents,
                projectReferences: spec.References.Where(ids.ContainsKey).Select(r => new ProjectReference(ids[r])),
                metadataReferences: references));
        }

        var workspace = new AdhocWorkspace();
        var workspaceDiagnostics = new List<string>();
        Solution solution;
        try
        {
            solution = workspace.AddSolution(SolutionInfo.Create(SolutionId.CreateNewId(), VersionStamp.Default,
                paths.Absolute(marker), projects));
        }
        catch (InvalidOperationException e)  // a reference cycle (Unity refuses one too): no references at all
        {
            workspaceDiagnostics.Add($"The assembly definitions reference each other in a cycle ({e.Message}): " +
                                     "their references to each other were left out");
            solution = workspace.AddSolution(SolutionInfo.Create(SolutionId.CreateNewId(), VersionStamp.Default,
                paths.Absolute(marker), projects.Select(p => p.WithProjectReferences([]))));
        }
        var unity = root.TryGetProperty("unity_version", out var v) && v.ValueKind == JsonValueKind.String ? v.GetString() : null;
        workspaceDiagnostics.InsertRange(0, [
            // Short enough for the CLI's notes (300 characters) to keep what it was chosen over.
            $"Unity project{(unity is null ? "" : " (editor " + unity + ")")}: {specs.Count} assemblies synthesized from " +
            "its layout (each .asmdef; Assembly-CSharp, -Editor, -firstpass for other scripts under Assets/), no MSBuild" +
            ChosenOver(Strings(root, "chosen_over")),
            $"{NotAvailable}, so the projects are partial; the game's own classes bind to each other and to the .NET " +
            $"reference assemblies ({framework}). Defined: UNITY_EDITOR and UNITY_<version>_OR_NEWER, no platform symbols",
            "To bind Unity's types too: open the project in Unity once (Assets > Open C# Project writes its .csproj and " +
            ".sln files) and index that .sln (solution_path)",
        ]);
        workspaceDiagnostics.AddRange(Strings(root, "notes"));

        var entries = new List<ProjectEntry>();
        foreach (var spec in specs)
        {
            var project = solution.GetProject(ids[spec.Name])!;
            var entry = new ProjectEntry
            {
                Index = entries.Count,
                Id = project.Id,
                Name = spec.Name,
                FilePath = project.FilePath!,
                TargetFrameworks = [framework],
                TargetFramework = framework,
                FrameworkChoice = "only",
                SkippedFrameworks = [],
                Restored = true,  // nothing to restore: Unity resolves its packages itself
                AssetsFile = null,
                UnresolvedPackages = [],
                IntermediateDir = null,
                Documents = project.Documents.Select(d => d.Id).ToList(),
                DocumentPaths = project.Documents.Select(d => d.FilePath!).ToHashSet(StringComparer.Ordinal),
                HasMetadataReferences = references.Count > 0,
                CoreLibraryResolved = FrameworkChooser.CoreResolves(project),
                UnitySynthesized = true,
            };
            if (spec.Missing.Count > 0)
                entry.LoadErrors.Add($"warning: references {spec.Missing.Count} assemblies that are not in the repository " +
                                     $"({string.Join(", ", spec.Missing.Take(8))}{(spec.Missing.Count > 8 ? ", ..." : "")})");
            if (spec.Editor) entry.LoadErrors.Add("warning: Editor-only: Unity compiles it for the editor, not for players");
            entries.Add(entry);
        }

        return new LoadedWorkspace
        {
            Workspace = workspace,
            Solution = solution,
            SolutionPath = paths.Relative(paths.Absolute(marker)),
            Projects = entries,
            WorkspaceDiagnostics = workspaceDiagnostics,
            LoadMs = clock.ElapsedMilliseconds,
            Frameworks = FrameworkRequest.Read(paths.Root, null),
        };
    }

    /// <summary>Boss Room holds one unrelated tool project (dotnet-tools/netcode.standards): say it was not indexed.</summary>
    private static string ChosenOver(List<string> others) => others.Count == 0 ? "" :
        $"; chosen over {string.Join(", ", others.Take(3))}{(others.Count > 3 ? $" and {others.Count - 3} more" : "")} " +
        "(solution_path indexes one instead)";

    private static List<string> Strings(JsonElement element, string name) =>
        element.TryGetProperty(name, out var list) && list.ValueKind == JsonValueKind.Array
            ? list.EnumerateArray().Select(e => e.GetString()).OfType<string>().ToList()
            : [];

    /// <summary>The reference assemblies to bind against, with their framework: .NET Standard 2.1 (Unity's API
    /// level) when the SDK has its pack, else the newest Microsoft.NETCore.App reference pack, else the running
    /// runtime's own assemblies.</summary>
    private static (string Framework, List<MetadataReference> References) ReferenceAssemblies()
    {
        var runtime = RuntimeEnvironment.GetRuntimeDirectory().TrimEnd(System.IO.Path.DirectorySeparatorChar);
        var dotnetRoot = Directory.GetParent(runtime)?.Parent?.Parent?.FullName;
        if (dotnetRoot is not null)
        {
            var standard = System.IO.Path.Combine(dotnetRoot, "packs", "NETStandard.Library.Ref", "2.1.0", "ref", "netstandard2.1");
            if (Directory.Exists(standard)) return ("netstandard2.1", Dlls(standard));
            var packs = System.IO.Path.Combine(dotnetRoot, "packs", "Microsoft.NETCore.App.Ref");
            var newest = Directory.Exists(packs)
                ? Directory.GetDirectories(packs).OrderByDescending(d => Version.TryParse(System.IO.Path.GetFileName(d).Split('-')[0], out var n) ? n : new Version(0, 0)).FirstOrDefault()
                : null;
            var refDir = newest is null ? null : Directory.GetDirectories(System.IO.Path.Combine(newest, "ref")).OrderDescending().FirstOrDefault();
            if (refDir is not null) return (System.IO.Path.GetFileName(refDir), Dlls(refDir));
        }
        var own = Dlls(runtime).Where(r => System.IO.Path.GetFileName(r.Display ?? "") is var n &&
            (n.StartsWith("System.", StringComparison.Ordinal) || n is "netstandard.dll" or "mscorlib.dll" or "System.dll")).ToList();
        return ($"net{Environment.Version.Major}.{Environment.Version.Minor}", own);
    }

    private static List<MetadataReference> Dlls(string folder) =>
        Directory.GetFiles(folder, "*.dll").Order(StringComparer.Ordinal)
            .Select(f => (MetadataReference)MetadataReference.CreateFromFile(f)).ToList();
}
