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

    // NuGet's codes for a package it could not find at all, or not in a version the project accepts.
    private static readonly HashSet<string> UnresolvedCodes = ["NU1100", "NU1101", "NU1102", "NU1103"];

    /// <summary>The packages restore could not resolve for `framework`, the indexed one, from the error entries of the
    /// assets file's `logs` (NuGet writes the file even when restore fails): none when the file is missing or
    /// unreadable.</summary>
    public static List<string> UnresolvedPackages(string? assets, string framework)
    {
        var found = new SortedSet<string>(StringComparer.OrdinalIgnoreCase);
        if (assets is null || !File.Exists(assets)) return [];
        try
        {
            // An assets file is often megabytes and nearly always clean: parse it only when it names such a code.
            var bytes = File.ReadAllBytes(assets);
            if (bytes.AsSpan().IndexOf("\"NU110"u8) < 0) return [];
            using var json = System.Text.Json.JsonDocument.Parse(bytes);
            if (!json.RootElement.TryGetProperty("logs", out var logs) || logs.ValueKind != System.Text.Json.JsonValueKind.Array)
                return [];
            var downloadOnly = DownloadOnly(json.RootElement);
            var aliases = FrameworkAliases(json.RootElement);
            foreach (var log in logs.EnumerateArray())
            {
                if (log.TryGetProperty("code", out var code) && UnresolvedCodes.Contains(code.GetString() ?? "")
                    && log.TryGetProperty("level", out var level) && level.GetString() == "Error"
                    && log.TryGetProperty("libraryId", out var library) && library.GetString() is { Length: > 0 } name
                    && !downloadOnly.Contains(name) && ConcernsFramework(log, framework, aliases))
                    found.Add(name);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or System.Text.Json.JsonException)
        {
            return [];
        }
        return found.ToList();
    }

    /// <summary>False only when every target graph the entry names is another of the project's frameworks (Hangfire.Core,
    /// indexed for netstandard2.0: Owin and the net451 reference assemblies are missing for net451 and net46 only). An
    /// entry naming no graph, or a graph in another spelling (`.NETStandard,Version=v2.0`), counts: it may be ours.</summary>
    private static bool ConcernsFramework(System.Text.Json.JsonElement log, string framework, HashSet<string> aliases)
    {
        if (!aliases.Contains(framework) || !log.TryGetProperty("targetGraphs", out var graphs)
            || graphs.ValueKind != System.Text.Json.JsonValueKind.Array || graphs.GetArrayLength() == 0)
            return true;
        foreach (var graph in graphs.EnumerateArray())
        {
            var name = (graph.GetString() ?? "").Split('/')[0]; // `net8.0/win-x64`: the runtime-specific graph of net8.0
            if (string.Equals(name, framework, StringComparison.OrdinalIgnoreCase) || !aliases.Contains(name)) return true;
        }
        return false;
    }

    /// <summary>The project's target frameworks as restore names them (the keys of `project.frameworks`).</summary>
    private static HashSet<string> FrameworkAliases(System.Text.Json.JsonElement root)
    {
        var aliases = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        if (root.TryGetProperty("project", out var project) && project.TryGetProperty("frameworks", out var frameworks)
            && frameworks.ValueKind == System.Text.Json.JsonValueKind.Object)
            foreach (var framework in frameworks.EnumerateObject()) aliases.Add(framework.Name);
        return aliases;
    }

    /// <summary>Packages restore only downloads (`PackageDownload`: Polly's package-validation baseline, its own previous
    /// version; targeting packs), referenced by no framework's dependencies: missing, they change no compile.</summary>
    private static HashSet<string> DownloadOnly(System.Text.Json.JsonElement root)
    {
        var downloads = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var dependencies = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        if (!root.TryGetProperty("project", out var project) || !project.TryGetProperty("frameworks", out var frameworks)
            || frameworks.ValueKind != System.Text.Json.JsonValueKind.Object)
            return downloads;
        foreach (var framework in frameworks.EnumerateObject())
        {
            if (framework.Value.TryGetProperty("dependencies", out var direct) && direct.ValueKind == System.Text.Json.JsonValueKind.Object)
                foreach (var dependency in direct.EnumerateObject()) dependencies.Add(dependency.Name);
            if (framework.Value.TryGetProperty("downloadDependencies", out var download) && download.ValueKind == System.Text.Json.JsonValueKind.Array)
                foreach (var item in download.EnumerateArray())
                    if (item.TryGetProperty("name", out var name) && name.GetString() is { Length: > 0 } text) downloads.Add(text);
        }
        downloads.ExceptWith(dependencies);
        return downloads;
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
