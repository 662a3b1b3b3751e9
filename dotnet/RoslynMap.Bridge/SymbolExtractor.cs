using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge;

/// <summary>
/// Turns one declaration into a symbol row. A symbol declared in several places (partial types and
/// members) gets its full row at its first declaration in an indexed document; the other parts
/// become location rows.
/// </summary>
internal sealed class SymbolExtractor
{
    private readonly DocumentContext _ctx;
    private readonly MemberRelations _relations;

    public SymbolExtractor(DocumentContext ctx)
    {
        _ctx = ctx;
        _relations = new MemberRelations(ctx);
    }

    /// <summary>Declares an ordinary member or type declaration node; returns its id (the
    /// context for references inside it) or null when it is not indexed.</summary>
    public string? DeclareNode(SyntaxNode decl, SyntaxNode? docNode = null)
    {
        var declared = _ctx.Model.GetDeclaredSymbol(decl);
        if (declared is null) return null;
        var (start, end) = IdentifierSpan(declared, decl);
        return Declare(declared, decl, start, end, decl.Span.End, () => Signatures.For(decl, declared), docNode ?? decl);
    }

    /// <summary>Field or event field declarator: the row spans the whole field declaration.</summary>
    public string? DeclareVariable(VariableDeclaratorSyntax v, BaseFieldDeclarationSyntax field)
    {
        var declared = _ctx.Model.GetDeclaredSymbol(v);
        if (declared is null) return null;
        return Declare(declared, v, v.Identifier.SpanStart, v.Identifier.Span.End, field.Span.End, () => Signatures.For(v, declared), field);
    }

    /// <summary>Primary constructor (records, and classes/structs with a parameter list), located
    /// at its parameter list so it never shares a position with its type.</summary>
    public string? DeclarePrimaryConstructor(TypeDeclarationSyntax type, INamedTypeSymbol typeSymbol)
    {
        var list = type.ParameterList!;
        IMethodSymbol? ctor = null;
        if (list.Parameters.Count > 0)
            ctor = _ctx.Model.GetDeclaredSymbol(list.Parameters[0])?.ContainingSymbol as IMethodSymbol;
        ctor ??= typeSymbol.InstanceConstructors.FirstOrDefault(c =>
            c.DeclaringSyntaxReferences.Any(r => _ctx.IsThisDeclaration(r, type)));
        if (ctor is null) return null;
        return Declare(ctor, type, list.SpanStart, list.SpanStart + 1, list.Span.End,
            () => Signatures.PrimaryConstructor(type, ctor), docNode: null, alwaysPrimary: true);
    }

    /// <summary>Positional record properties are declared by their parameter.</summary>
    public void DeclarePositionalProperties(TypeDeclarationSyntax type, INamedTypeSymbol typeSymbol)
    {
        foreach (var parameter in type.ParameterList!.Parameters)
        {
            var property = typeSymbol.GetMembers(parameter.Identifier.ValueText).OfType<IPropertySymbol>()
                .FirstOrDefault(p => p.DeclaringSyntaxReferences.Any(r => _ctx.IsThisDeclaration(r, parameter)));
            if (property is null) continue;
            Declare(property, parameter, parameter.Identifier.SpanStart, parameter.Identifier.Span.End, parameter.Span.End,
                () => Signatures.PositionalProperty(parameter, property), docNode: null);
        }
    }

    /// <summary>The synthesized top-level entry point, located at the first global statement.</summary>
    public string? DeclareTopLevelMain(IMethodSymbol main, GlobalStatementSyntax first, GlobalStatementSyntax last)
    {
        return Declare(main, first, first.SpanStart, first.SpanStart, last.Span.End,
            () => Signatures.TopLevelMain(main), docNode: null, alwaysPrimary: true);
    }

    private string? Declare(ISymbol declared, SyntaxNode decl, int idStart, int idEnd, int spanEnd,
        Func<string> signature, SyntaxNode? docNode, bool alwaysPrimary = false)
    {
        var symbol = Canonical(declared);
        var id = SymbolFacts.DocId(symbol);
        if (id is null) return null;
        var kind = SymbolFacts.KindOf(symbol);
        if (kind is null) return id;

        var (line, col) = _ctx.Position(idStart);
        var (endLine, endCol) = _ctx.Position(spanEnd);
        if (!alwaysPrimary && !IsPrimary(symbol, declared, decl))
        {
            _ctx.Result.Locations.Add(new LocationRow(id, _ctx.ProjectIndex, _ctx.File, line, col, endLine));
            return id;
        }

        var container = SymbolFacts.Container(symbol) is { } ct ? SymbolFacts.DocId(ct) : null;
        _ctx.Result.Symbols.Add(new SymbolRow(
            id, StableIds.For(symbol, kind), _ctx.ProjectIndex, SymbolFacts.Name(symbol), kind,
            SymbolFacts.Fqn(symbol), signature(), DocSummary(symbol, docNode),
            SymbolFacts.Namespace(symbol), container, _ctx.File, line, col, endLine, endCol,
            SymbolFacts.Visibility(symbol), symbol.IsStatic, SymbolFacts.Arity(symbol)));

        if (symbol is INamedTypeSymbol type)
        {
            _relations.TypeRelations(type, id);
            _relations.BorrowedImplementations(type, idStart, idEnd);
        }
        else _relations.MemberRefs(symbol, id, idStart, idEnd);
        return id;
    }

    /// <summary>Partial members: the definition part speaks for the implementation part.</summary>
    private static ISymbol Canonical(ISymbol symbol) => symbol switch
    {
        IMethodSymbol { PartialDefinitionPart: { } def } => def,
        IPropertySymbol { PartialDefinitionPart: { } def } => def,
        _ => symbol,
    };

    private bool IsPrimary(ISymbol symbol, ISymbol declared, SyntaxNode decl)
    {
        var refs = symbol.DeclaringSyntaxReferences;
        var sameSymbol = SymbolEqualityComparer.Default.Equals(symbol, declared);
        if (refs.Length <= 1 && sameSymbol) return true;
        var all = sameSymbol ? refs : refs.AddRange(declared.DeclaringSyntaxReferences);
        SyntaxReference? first = null;
        foreach (var r in all)
        {
            if (!_ctx.IsIndexed(r)) continue;
            first ??= r;
            // A partial type speaks from the part that declares its bases (Newtonsoft.Json's JsonTextReader is
            // `: JsonReader, IJsonLineInfo` in JsonTextReader.cs, not in JsonTextReader.Async.cs, first by name).
            if (symbol is not INamedTypeSymbol) break;
            if (r.GetSyntax() is BaseTypeDeclarationSyntax { BaseList: not null }) return _ctx.IsThisDeclaration(r, decl);
        }
        return first is null || _ctx.IsThisDeclaration(first, decl);
    }

    private string DocSummary(ISymbol symbol, SyntaxNode? docNode)
    {
        if (docNode is null) return "";
        var summary = DocSummaries.For(docNode);
        if (summary.Length > 0 || symbol.DeclaringSyntaxReferences.Length <= 1) return summary;
        // A partial symbol may carry its doc comment on another part.
        foreach (var r in symbol.DeclaringSyntaxReferences)
        {
            var node = r.GetSyntax();
            if (node is VariableDeclaratorSyntax { Parent.Parent: BaseFieldDeclarationSyntax f }) node = f;
            summary = DocSummaries.For(node);
            if (summary.Length > 0) return summary;
        }
        return "";
    }

    /// <summary>The name token of a declaration, as Roslyn locates the symbol (identifier, `this`
    /// of an indexer, operator token...).</summary>
    private (int Start, int End) IdentifierSpan(ISymbol symbol, SyntaxNode decl)
    {
        foreach (var loc in symbol.Locations)
        {
            if (loc.IsInSource && loc.SourceTree == _ctx.Tree && decl.Span.Contains(loc.SourceSpan))
                return (loc.SourceSpan.Start, loc.SourceSpan.End);
        }
        return (decl.SpanStart, decl.SpanStart);
    }
}
