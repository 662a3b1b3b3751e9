using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>One indexed project (one per project file; other target frameworks are dropped)
/// with its load diagnostics and, after extraction, its compile tally.</summary>
internal sealed class ProjectEntry
{
    public required int Index;
    public required ProjectId Id;
    public required string Name;
    public required string FilePath;           // absolute
    public required List<string> TargetFrameworks;
    public required bool Restored;
    public readonly List<string> LoadErrors = new();
    public bool LoadFailed;                     // a Failure-kind workspace diagnostic named this project
    public required List<DocumentId> Documents; // C# documents to index (obj/ left out)
    public required HashSet<string> DocumentPaths;

    public int ErrorCount;
    public int MissingReferenceErrors;
    public readonly List<string> FirstErrors = new();
    public bool HasMetadataReferences;

    public string TargetFramework => TargetFrameworks.Count > 0 ? TargetFrameworks[0] : "";

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

    public string SemanticLevel
    {
        get
        {
            if (LoadFailed || !HasMetadataReferences) return "syntax_only";
            if (MissingReferenceErrors > 0 || !Restored) return "partial";
            return "full";
        }
    }
}
