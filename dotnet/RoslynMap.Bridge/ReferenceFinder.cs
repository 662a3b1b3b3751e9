using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;

namespace RoslynMap.Bridge;

/// <summary>
/// Test oracle: SymbolFinder's references to one symbol. "locations" are references to exactly
/// that symbol in code, "doc_comments" those inside XML doc comments (crefs, which the index
/// leaves out), "implicit" the implicit ones, and "cascaded" references Roslyn files under
/// related symbols (constructors of a type, accessors, overrides...) with the id of the symbol
/// they point at.
/// </summary>
internal static class ReferenceFinder
{
    public static string Find(LoadedWorkspace loaded, RepoPaths paths, string symbolId, string projectName)
    {
        var entry = loaded.Projects.FirstOrDefault(p => p.Name == projectName)
            ?? throw new ArgumentException($"unknown project {projectName}");
        var project = loaded.Solution.GetProject(entry.Id)!;
        var compilation = project.GetCompilationAsync().GetAwaiter().GetResult()!;
        var symbol = DocumentationCommentId.GetFirstSymbolForDeclarationId(symbolId, compilation);

        var direct = new SortedSet<(string, int, int)>();
        var implicitOnes = new SortedSet<(string, int, int)>();
        var docComments = new SortedSet<(string, int, int)>();
        var cascaded = new SortedSet<(string, int, int, string)>();
        if (symbol is not null)
        {
            var found = SymbolFinder.FindReferencesAsync(symbol, loaded.Solution).GetAwaiter().GetResult();
            foreach (var referenced in found)
            {
                var isTarget = SymbolEqualityComparer.Default.Equals(referenced.Definition.OriginalDefinition, symbol.OriginalDefinition);
                var definitionId = SymbolFacts.DocId(referenced.Definition.OriginalDefinition) ?? "";
                foreach (var location in referenced.Locations)
                {
                    var span = location.Location.GetLineSpan();
                    var key = (paths.Relative(span.Path), span.StartLinePosition.Line + 1, span.StartLinePosition.Character + 1);
                    if (location.IsImplicit) implicitOnes.Add(key);
                    else if (IsInDocComment(location.Location)) docComments.Add(key);
                    else if (isTarget) direct.Add(key);
                    else cascaded.Add((key.Item1, key.Item2, key.Item3, definitionId));
                }
            }
        }

        return Json.Write(w =>
        {
            w.WriteStartObject();
            w.WriteBoolean("resolved", symbol is not null);
            WriteLocations(w, "locations", direct.Select(l => (l.Item1, l.Item2, l.Item3, (string?)null)));
            WriteLocations(w, "doc_comments", docComments.Select(l => (l.Item1, l.Item2, l.Item3, (string?)null)));
            WriteLocations(w, "implicit", implicitOnes.Select(l => (l.Item1, l.Item2, l.Item3, (string?)null)));
            WriteLocations(w, "cascaded", cascaded.Select(l => (l.Item1, l.Item2, l.Item3, (string?)l.Item4)));
            w.WriteEndObject();
        });
    }

    private static bool IsInDocComment(Location location)
    {
        if (location.SourceTree is not { } tree) return false;
        var token = tree.GetRoot().FindToken(location.SourceSpan.Start, findInsideTrivia: true);
        return token.Parent?.FirstAncestorOrSelf<DocumentationCommentTriviaSyntax>(ascendOutOfTrivia: false) is not null;
    }

    private static void WriteLocations(System.Text.Json.Utf8JsonWriter w, string name, IEnumerable<(string File, int Line, int Col, string? Id)> rows)
    {
        w.WriteStartArray(name);
        foreach (var r in rows)
        {
            w.WriteStartArray();
            w.WriteStringValue(r.File);
            w.WriteNumberValue(r.Line);
            w.WriteNumberValue(r.Col);
            if (r.Id is not null) w.WriteStringValue(r.Id);
            w.WriteEndArray();
        }
        w.WriteEndArray();
    }
}
