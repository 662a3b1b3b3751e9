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

    /// <summary>Generated code (GeneratedCode): its unbound names are not stored. EF migrations of a project whose
    /// EF Core did not restore are a million of them (bitwarden/server) and name only the framework's builder API.</summary>
    public bool Generated => _generated ??= GeneratedCode.Is(File, Tree);
    private bool? _generated;

    // The documents of a project reference the same symbols over and over: each id is built once per
    // compilation (shared by the threads extracting its documents; dropped with the compilation).
    private SymbolCache? _cache;
    private SymbolCache Cache => _cache ??= SymbolCache.Of(Model.Compilation);

    // In front of the shared caches, per document and by object identity: a document names the same symbol objects
    // again and again, and the shared dictionaries' symbol equality and locks cost more than the lookup (the same
    // symbol object always has the same id, so nothing read changes).
    private readonly Dictionary<ISymbol, string?> _ids = new(SameObject.Instance);

    public string? IdOf(ISymbol symbol)
    {
        if (_ids.TryGetValue(symbol, out var id)) return id;
        return _ids[symbol] = Cache.Ids.GetOrAdd(symbol, SymbolFacts.DocId);
    }

    private readonly HashSet<string> _externals = new(StringComparer.Ordinal);
    private readonly HashSet<ISymbol> _inSource = new(SameObject.Instance);  // symbols known to be no external

    /// <summary>Records a metadata symbol a reference names (once per document), with its container.</summary>
    public void External(ISymbol target, string id, string? kind)
    {
        if (kind is null || _externals.Contains(id) || _inSource.Contains(target)) return;
        var found = Cache.Externals.GetOrAdd(target, ExternalOf);
        if (found is null) _inSource.Add(target);
        if (found is null || !_externals.Add(id)) return;
        if (found.Container is { } container) External(container, found.ContainerId!, found.ContainerKind);
        Result.Externals.Add(new ExternalRow(id, found.Name, kind, found.Fqn, found.ContainerId, found.Assembly,
            found.Signature, found.Namespace));
    }

    /// <summary>What an external row says of a metadata symbol (null for a symbol declared in source).</summary>
    private External? ExternalOf(ISymbol target)
    {
        if (target.Locations.Length == 0 || !target.Locations[0].IsInMetadata) return null;
        var container = SymbolFacts.Container(target)?.OriginalDefinition;
        var containerId = container is null ? null : IdOf(container);
        return new External(SymbolFacts.Name(target), SymbolFacts.Fqn(target), target.ContainingAssembly?.Name ?? "",
            target.ToDisplayString(SymbolFacts.ExternalSignatureFormat), SymbolFacts.Namespace(target),
            containerId is null ? null : container, containerId, containerId is null ? null : SymbolFacts.KindOf(container!));
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

/// <summary>An external symbol's row fields, and its container (recorded before it) when it has an id.</summary>
internal sealed record External(string Name, string Fqn, string Assembly, string Signature, string Namespace,
    ISymbol? Container, string? ContainerId, string? ContainerKind);

/// <summary>Per compilation: symbol ids and external rows, computed once whichever document asks first.
/// Both are functions of the symbol alone, so sharing them changes no row.</summary>
internal sealed class SymbolCache
{
    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<Compilation, SymbolCache> All = new();

    public readonly System.Collections.Concurrent.ConcurrentDictionary<ISymbol, string?> Ids = new(SymbolEqualityComparer.Default);
    public readonly System.Collections.Concurrent.ConcurrentDictionary<ISymbol, External?> Externals = new(SymbolEqualityComparer.Default);

    public static SymbolCache Of(Compilation compilation) => All.GetValue(compilation, _ => new SymbolCache());
}

/// <summary>Symbols compared as objects (reference identity), for per-document caches in front of shared ones.</summary>
internal sealed class SameObject : IEqualityComparer<ISymbol>
{
    public static readonly SameObject Instance = new();

    public bool Equals(ISymbol? x, ISymbol? y) => ReferenceEquals(x, y);

    public int GetHashCode(ISymbol obj) => System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(obj);
}
