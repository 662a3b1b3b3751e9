using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>
/// Where MSBuild keeps a project's project.assets.json (its ProjectAssetsFile, in
/// BaseIntermediateOutputPath). The workspace does not expose MSBuild properties, but it does expose
/// the intermediate assembly (obj/Debug/net10.0/App.dll; with UseArtifactsOutput
/// artifacts/obj/App/debug/App.dll): the assets file sits one to three folders above it. The
/// conventional obj/ beside the project file is the fallback.
/// </summary>
internal static class RestoreState
{
    private const string AssetsName = "project.assets.json";

    public static string? AssetsFile(Project project)
    {
        var projectDir = Path.GetDirectoryName(project.FilePath) ?? "";
        foreach (var start in IntermediateDirs(project))
        {
            var dir = start;
            for (var up = 0; up < 4 && !string.IsNullOrEmpty(dir); up++)
            {
                var candidate = Path.Combine(dir, AssetsName);
                if (File.Exists(candidate)) return candidate;
                if (string.Equals(dir, projectDir, StringComparison.Ordinal)) break; // never above the project's own folder
                dir = Path.GetDirectoryName(dir);
            }
        }
        return Path.Combine(projectDir, "obj", AssetsName);
    }

    /// <summary>Folders to search from: the intermediate assembly's, and the output assembly's with its
    /// `bin` segment read as `obj` (artifacts/bin/App/debug → artifacts/obj/App/debug).</summary>
    private static IEnumerable<string> IntermediateDirs(Project project)
    {
        if (Path.GetDirectoryName(project.CompilationOutputInfo.AssemblyPath ?? "") is { Length: > 0 } intermediate)
            yield return intermediate;
        if (Path.GetDirectoryName(project.OutputFilePath ?? "") is { Length: > 0 } output)
        {
            var sep = Path.DirectorySeparatorChar;
            var bin = $"{sep}bin{sep}";
            var at = output.LastIndexOf(bin, StringComparison.Ordinal);
            if (at >= 0) yield return output[..at] + $"{sep}obj{sep}" + output[(at + bin.Length)..];
        }
    }
}
