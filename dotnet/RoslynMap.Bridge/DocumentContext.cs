using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMap.Bridge;

/// <summary>What every extractor of one document needs: model, tree, file name and the output.</summary>
internal sealed class DocumentContext
{
    public required ProjectEntry Project;
    public required SemanticModel Model;
    public required SyntaxTree Tree;
    public required SourceText Text;
    public required string File;               // repo-relative
    public required DocumentResult Result;
    public required bool Facts;                // extract architectural facts (docs/architecture.md)

    public int ProjectIndex => Project.Index;

    // Documents reference the same few symbols over and over; ids are built once per document.
    private readonly Dictionary<ISymbol, string?> _ids = new(SymbolEqualityComparer.Default);

    public string? IdOf(ISymbol symbol)
    {
        if (!_ids.TryGetValue(symbol, out var id)) _ids[symbol] = id = SymbolFacts.DocId(symbol);
        return id;
    }

    private readonly HashSet<string> _externals = new(StringComparer.Ordinal);

    /// <summary>Records a metadata symbol a reference names (once per document), with its container.</summary>
    public void External(ISymbol target, string id, string? kind)
    {
        if (kind is null || target.Locations.Length == 0 || !target.Locations[0].IsInMetadata) return;
        if (!_externals.Add(id)) return;
        var container = SymbolFacts.Container(target);
        string? containerId = null;
        if (container is not null && IdOf(container.OriginalDefinition) is { } cid)
        {
            containerId = cid;
            External(container.OriginalDefinition, cid, SymbolFacts.KindOf(container));
        }
        Result.Externals.Add(new ExternalRow(id, SymbolFacts.Name(target), kind, SymbolFacts.Fqn(target), containerId,
            target.ContainingAssembly?.Name ?? "", target.ToDisplayString(SymbolFacts.ExternalSignatureFormat),
            SymbolFacts.Namespace(target)));
    }

    /// <summary>1-based line and 1-based UTF-16 column of a text offset.</summary>
    public (int Line, int Col) Position(int offset)
    {
        var lp = Text.Lines.GetLinePosition(offset);
        return (lp.Line + 1, lp.Character + 1);
    }

    /// <summary>True when a declaring syntax reference lies in a document this project indexes
    /// (not obj/, not generator output).</summary>
    public bool IsIndexed(SyntaxReference reference) =>
        reference.SyntaxTree.FilePath is { } path && Project.DocumentPaths.Contains(path);

    public bool IsThisDeclaration(SyntaxReference reference, SyntaxNode decl) =>
        reference.Span == decl.Span && string.Equals(reference.SyntaxTree.FilePath, Tree.FilePath, StringComparison.Ordinal);
}
