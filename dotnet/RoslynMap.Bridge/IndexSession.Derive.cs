namespace RoslynMap.Bridge;

/// <summary>
/// Baselines derived from an ancestor's (docs/ci.md, "Incremental baselines"): Python needs the
/// documents in extraction order (the order a full index writes them, which fixes the order of
/// each project's first errors) and which projects reference which (a changed public declaration
/// re-extracts its project and every project downstream). Extraction itself is ExtractDocuments.
/// </summary>
public sealed partial class IndexSession
{
    /// <summary><c>{"documents": [[path, project_index]], "references": {project_index: [project_index]}}</c>:
    /// documents in NextBatch order; a project's direct references to other indexed projects.</summary>
    public string DocumentPlan() => Json.Write(w =>
    {
        var byId = _loaded.Projects.ToDictionary(p => p.Id, p => p.Index);
        w.WriteStartObject();
        w.WriteStartArray("documents");
        foreach (var (project, docId) in _queue)
        {
            w.WriteStartArray();
            w.WriteStringValue(_paths.Relative(_loaded.Solution.GetDocument(docId)!.FilePath));
            w.WriteNumberValue(project.Index);
            w.WriteEndArray();
        }
        w.WriteEndArray();
        w.WriteStartObject("references");
        foreach (var project in _loaded.Projects)
        {
            w.WriteStartArray(project.Index.ToString(System.Globalization.CultureInfo.InvariantCulture));
            var refs = _loaded.Solution.GetProject(project.Id)?.ProjectReferences ?? [];
            foreach (var r in refs)
            {
                if (byId.TryGetValue(r.ProjectId, out var index)) w.WriteNumberValue(index);
            }
            w.WriteEndArray();
        }
        w.WriteEndObject();
        w.WriteEndObject();
    });

    /// <summary>One batch holding only the GeneratedUse facts of these projects (a JSON array of project indexes),
    /// as a full index computes them: a derived baseline recomputes them for every project whose documents (or an
    /// upstream project's) were extracted again, since they depend on the whole project.</summary>
    public byte[] ExtractGeneratedUses(string jsonProjectIndexes)
    {
        var wanted = System.Text.Json.JsonSerializer.Deserialize<int[]>(jsonProjectIndexes) ?? [];
        var results = _loaded.Projects.Where(p => wanted.Contains(p.Index))
            .Select(p => ExtractGeneratedUses(p, q => CompilationOf(_extractionSolution, _compilations, q), 0, 1)).ToList();
        return BatchWriter.Write(results);
    }
}
