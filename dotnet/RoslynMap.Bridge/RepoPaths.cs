namespace RoslynMap.Bridge;

/// <summary>Repo-relative, forward-slash paths (the only form that leaves the bridge).</summary>
internal sealed class RepoPaths
{
    private readonly string _root;
    private readonly string? _linksTo; // the repository a mirror of links stands for (IndexSession.Open)

    public RepoPaths(string repoRoot, string? linksTo = null)
    {
        _root = Path.GetFullPath(repoRoot);
        _linksTo = linksTo is null ? null : Path.GetFullPath(linksTo);
    }

    public string Root => _root;

    public string Absolute(string path) => Path.GetFullPath(Path.IsPathRooted(path) ? path : Path.Combine(_root, path));

    public string Relative(string? absolute)
    {
        if (string.IsNullOrEmpty(absolute)) return "";
        return Path.GetRelativePath(_root, absolute).Replace('\\', '/');
    }

    /// <summary>True when the file's real path (symlinks followed) is inside the repository.</summary>
    public bool IsInside(string file)
    {
        string real;
        try
        {
            real = new FileInfo(file).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? Path.GetFullPath(file);
        }
        catch (IOException)
        {
            return false;
        }
        return Under(_root, real) || (_linksTo is not null && Under(_linksTo, real));
    }

    private static bool Under(string root, string path)
    {
        var rel = Path.GetRelativePath(root, path);
        return !rel.StartsWith("..", StringComparison.Ordinal) && !Path.IsPathRooted(rel);
    }

    /// <summary>True for files under a project's obj/ folder (generated AssemblyInfo, GlobalUsings...), or
    /// under its intermediate folder elsewhere (artifacts/obj/App/ with UseArtifactsOutput).</summary>
    public static bool IsUnderObj(string filePath, string projectDir, string? intermediateDir = null)
    {
        var rel = Path.GetRelativePath(projectDir, filePath).Replace('\\', '/');
        if (rel.StartsWith("obj/", StringComparison.OrdinalIgnoreCase)) return true;
        if (string.IsNullOrEmpty(intermediateDir)) return false;
        var inner = Path.GetRelativePath(intermediateDir, filePath).Replace('\\', '/');
        return !inner.StartsWith("../", StringComparison.Ordinal) && !Path.IsPathRooted(inner);
    }
}
