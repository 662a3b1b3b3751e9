using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>One indexed project (one per project file: of a multi-targeted project, the target
/// framework FrameworkChooser picked) with its load diagnostics and, after extraction, its compile
/// tally and the evidence its semantic level is decided from (docs/tools.md, "Semantic levels").</summary>
internal sealed class ProjectEntry
{
    public required int Index;
    public required ProjectId Id;
    public required string Name;
    public required string FilePath;           // absolute
    public required List<string> TargetFrameworks; // every framework the project declares, in load order
    public required string TargetFramework;    // the one indexed
    public required string FrameworkChoice;    // "only" | "auto" | "requested" (roslynmap.json or --framework)
    public required List<SkippedFramework> SkippedFrameworks;
    public required bool Restored;
    public required string? AssetsFile;        // where MSBuild put project.assets.json (found or expected)
    public required List<string> UnresolvedPackages; // packages restore could not resolve (its assets file's errors)
    public required string? IntermediateDir;   // its folder (obj/, or artifacts/obj/App/): generated files, not indexed
    public readonly List<string> LoadErrors = new();
    public bool LoadFailed;                     // a Failure-kind workspace diagnostic named this project
    public required List<DocumentId> Documents; // C# documents to index (obj/ left out)
    public required HashSet<string> DocumentPaths;
    public required bool HasMetadataReferences;
    public required bool CoreLibraryResolved;  // System.Object binds: there is a semantic model to speak of
    public bool SourcesFromDisk;                // MSBuild could not evaluate it: its .cs files were added (SourceFallback)
    public bool UnitySynthesized;               // built from a Unity project's layout, without Unity's assemblies (UnityLoader)

    public int ErrorCount;
    public int MissingReferenceErrors;
    public long ResolvedReferences;
    public long UnresolvedReferences;
    public readonly List<string> FirstErrors = new();

    // Codes that mean "a type, namespace or assembly could not be found": the project is
    // analysable only in part (usually not restored or a missing reference).
    // Python reads them from Describe() (stored in the baseline meta): one list, here.
    internal static readonly HashSet<string> MissingReferenceCodes =
        ["CS0246", "CS0234", "CS0012", "CS0518", "CS0400", "CS1069", "CS0006", "CS0009"];

    public void CountError(string file, int line, string code, string message)
    {
        ErrorCount++;
        if (MissingReferenceCodes.Contains(code)) MissingReferenceErrors++;
        if (FirstErrors.Count < 5) FirstErrors.Add($"{file}:{line}: {code}: {message}");
    }

    /// <summary>From evidence only (DESIGN §7): no semantic model (no metadata references or the core
    /// library unresolved) is syntax_only; missing-reference errors, or a package restore could not resolve
    /// (its uses are unbound even where the errors land in generated files we do not index: a global
    /// `&lt;Using Include="NSubstitute" /&gt;`, Polly.Specs), make it partial; else full. Load warnings, NuGet
    /// substitutions and a missing assets file change nothing by themselves.</summary>
    public string SemanticLevel
    {
        get
        {
            if (!HasMetadataReferences || !CoreLibraryResolved) return "syntax_only";
            if (MissingReferenceErrors > 0 || UnresolvedPackages.Count > 0) return "partial";
            return "full";
        }
    }

    private string Unresolved => UnresolvedPackages.Count == 0 ? "" :
        $"restore left {UnresolvedPackages.Count} package{(UnresolvedPackages.Count == 1 ? "" : "s")} unresolved " +
        $"({string.Join(", ", UnresolvedPackages.Take(5))}{(UnresolvedPackages.Count > 5 ? ", ..." : "")})";

    /// <summary>Why the level is what it is, in one sentence (shown beside it).</summary>
    public string LevelReason => SemanticLevel switch
    {
        "syntax_only" when SourcesFromDisk => "MSBuild could not evaluate the project: its .cs files were indexed by syntax, with no references",
        "syntax_only" when !HasMetadataReferences => "no metadata references were loaded",
        "syntax_only" => $"the core library (System.Object) is not resolved for {TargetFramework}",
        "partial" when UnitySynthesized => $"{MissingReferenceErrors} missing-reference errors: synthesized from Unity's " +
                                           $"layout; {UnityLoader.NotAvailable}",
        "partial" when MissingReferenceErrors == 0 => Unresolved,
        "partial" when UnresolvedPackages.Count > 0 => $"{MissingReferenceErrors} missing-reference errors; {Unresolved}",
        "partial" => $"{MissingReferenceErrors} missing-reference errors",
        _ => "compiled without missing-reference errors",
    };
}

/// <summary>A target framework of a multi-targeted project that was not indexed, and why.</summary>
internal sealed record SkippedFramework(string Framework, string Reason);
