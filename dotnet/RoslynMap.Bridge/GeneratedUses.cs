using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMap.Bridge.Facts;

namespace RoslynMap.Bridge;

/// <summary>
/// What source generators' output uses of the solution's own code (docs/architecture.md, "Generated uses"). The
/// walk covers a project's documents only, so a field an `[ObservableProperty]` property reads, the
/// `partial void On{Prop}Changed` hook its setter calls, the method a `[RelayCommand]` wraps and a
/// `[JsonSerializable]` type's members were "unused" (AvaloniaUI/Avalonia.Samples). Each name of a generated tree
/// that binds to a symbol declared in an indexed document becomes one GeneratedUse fact per (symbol, generated
/// member); the generated code's own symbols and references are not stored (its files are not on disk).
/// </summary>
internal static class GeneratedUses
{
    /// <summary>The GeneratedUse facts of one project's generated documents, share `share` of `shares` (contiguous
    /// shares, in the generators' order), bound with `compilation` (the compilation its documents are bound with,
    /// which holds the generated trees). `indexed`: every indexed document's absolute path; `names`: what the project
    /// and the projects it references declare there. Each fact's (symbol, generated member) is in `GeneratedKeys`.</summary>
    public static DocumentResult Extract(ProjectEntry project, Project roslynProject, Compilation compilation,
        DeclaredNames names, ISet<string> indexed, RepoPaths paths, int share, int shares)
    {
        var result = new DocumentResult { GeneratedKeys = new() };
        var cpu = Profile.Now();
        var listed = false;
        try
        {
            // In path order (generator, then hint name): Roslyn lists them as the generators ran, no order it promises,
            // and which document records a (symbol, member) pair two of them share (a JsonSerializerContext's parts)
            // must be.
            var documents = roslynProject.GetSourceGeneratedDocumentsAsync().AsTask().GetAwaiter().GetResult()
                .OrderBy(d => d.FilePath ?? d.HintName, StringComparer.Ordinal).ToList();
            // The compilation's trees by path, built only when a document's own tree is not the compilation's.
            Dictionary<string, SyntaxTree>? trees = null;
            listed = true;
            var seen = new HashSet<(string Symbol, string From)>();
            var (start, end) = (documents.Count * share / shares, documents.Count * (share + 1) / shares);
            foreach (var document in documents.Skip(start).Take(end - start))
            {
                // The generated document's tree is the compilation's (same generator run); by path otherwise.
                if (!document.TryGetSyntaxTree(out var tree) || !compilation.ContainsSyntaxTree(tree))
                {
                    trees ??= compilation.SyntaxTrees.Where(t => !string.IsNullOrEmpty(t.FilePath))
                        .GroupBy(t => t.FilePath, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
                    if (document.FilePath is not { } path || !trees.TryGetValue(path, out tree)) continue;
                }
                Walk(project, document, tree, compilation, names, indexed, paths, seen, result);
            }
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Generated code is a bonus: its failure costs this share's GeneratedUse facts, said once (a failure to
            // list the documents, which every share meets, by the first share alone).
            if (listed || share == 0) result.Diagnostics.Add(new DiagnosticRow(project.Index, paths.Relative(project.FilePath), 1, 1, "internal",
                "RM0003", $"generated code not read: {ex.GetType().Name}: {ex.Message}"));
        }
        Profile.Lap("extract.generated", cpu);
        return result;
    }

    private static void Walk(ProjectEntry project, SourceGeneratedDocument document, SyntaxTree tree,
        Compilation compilation, DeclaredNames names, ISet<string> indexed, RepoPaths paths,
        HashSet<(string, string)> seen, DocumentResult result)
    {
        SemanticModel? model = null;
        var generator = GeneratorOf(document);
        try
        {
            foreach (var node in tree.GetRoot().DescendantNodes())
            {
                // Only names the solution declares are asked about: generated code names the framework far more.
                IEnumerable<ISymbol> bound;
                if (node is SimpleNameSyntax name)
                {
                    if (!names.Contains(name.Identifier.ValueText) || (InNameof(name) && !SetsComponentParameter(name))) continue;
                    model ??= compilation.GetSemanticModel(tree);
                    var info = model.GetSymbolInfo(name);
                    bound = info.Symbol is { } one ? [one] : info.CandidateSymbols;
                }
                else if (node is LiteralExpressionSyntax { RawKind: (int)SyntaxKind.StringLiteralExpression } literal
                         && OpenedComponent(literal) is { } component && names.Contains(literal.Token.ValueText))
                {
                    model ??= compilation.GetSemanticModel(tree);
                    bound = ComponentParameter(model.GetTypeInfo(component).Type, literal.Token.ValueText);
                }
                else continue;
                foreach (var candidate in bound)
                {
                    var symbol = SymbolFacts.Definition(candidate);
                    // Types and members only: a namespace (`Customers` in `Flow.Web.Pages.Customers`) is declared
                    // in every file it spans and deleted by none.
                    if (symbol is not (INamedTypeSymbol or IMethodSymbol or IPropertySymbol or IFieldSymbol or IEventSymbol)
                        || symbol.IsImplicitlyDeclared || DeclaredIn(symbol, indexed) is not { } declaration
                        || SymbolFacts.DocId(symbol) is not { } id) continue;
                    var member = MemberAt(model, node.SpanStart);
                    // A type its own generated part names (a JsonSerializerContext's `Default`) is no use of it.
                    if (member is not null && Encloses(symbol, member)) continue;
                    var from = member is null ? "" : SymbolFacts.DocId(member) ?? member.ToDisplayString();
                    if (!seen.Add((id, from))) continue;
                    var mapped = node.GetLocation().GetMappedLineSpan();
                    var detail = new FactDetail().Add("generator", generator).Add("hint_name", document.HintName).Add("from", from);
                    string file;
                    int line, col;
                    if (mapped.HasMappedPath)
                    {
                        // Razor: the generated line maps back into the .cshtml/.razor file.
                        file = paths.Relative(mapped.Path);
                        (line, col) = (mapped.StartLinePosition.Line + 1, mapped.StartLinePosition.Character + 1);
                        detail.Add("mapped", $"{file}:{line}");
                    }
                    else
                    {
                        var at = declaration.GetLineSpan().StartLinePosition;
                        (file, line, col) = (paths.Relative(declaration.SourceTree!.FilePath), at.Line + 1, at.Character + 1);
                    }
                    result.Facts.Add(new FactRow(FactKinds.GeneratedUse, id, project.Index, file, line, col,
                        Confidence.High, generator, detail.ToJson()));
                    result.GeneratedKeys!.Add((id, from));
                }
            }
        }
        finally
        {
            if (model is not null) SharedBinding.Release(compilation, tree);
        }
    }

    /// <summary>Where the symbol is declared in an indexed (regular) document, or null: a partial method's
    /// implementation counts (the generator declares `partial void OnTitleChanged(string value);`, the user writes
    /// its body), and so does a partial property's.</summary>
    private static Location? DeclaredIn(ISymbol symbol, ISet<string> indexed)
    {
        var parts = symbol switch
        {
            IMethodSymbol m => new[] { m, m.PartialImplementationPart, m.PartialDefinitionPart },
            IPropertySymbol p => new ISymbol?[] { p, p.PartialImplementationPart, p.PartialDefinitionPart },
            _ => [symbol],
        };
        foreach (var part in parts)
        {
            if (part is null) continue;
            foreach (var location in part.Locations)
            {
                if (location.IsInSource && location.SourceTree?.FilePath is { } path && indexed.Contains(path)) return location;
            }
        }
        return null;
    }

    /// <summary>The generated member holding a position (a property for its accessors).</summary>
    private static ISymbol? MemberAt(SemanticModel model, int position)
    {
        var symbol = model.GetEnclosingSymbol(position);
        while (symbol is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction })
            symbol = symbol.ContainingSymbol;
        return symbol is IMethodSymbol { AssociatedSymbol: { } associated } ? associated : symbol;
    }

    /// <summary>Whether `member` is `symbol`, a part of it (the generated implementation of a partial method the user
    /// declares, `[LoggerMessage]`, `[GeneratedRegex]`) or inside it.</summary>
    private static bool Encloses(ISymbol symbol, ISymbol member)
    {
        for (ISymbol? at = member; at is not null; at = at.ContainingType)
        {
            if (SymbolEqualityComparer.Default.Equals(at.OriginalDefinition, symbol)) return true;
            if (at is IMethodSymbol { PartialDefinitionPart: { } definition }
                && SymbolEqualityComparer.Default.Equals(definition.OriginalDefinition, symbol)) return true;
        }
        return false;
    }

    /// <summary>A name inside `nameof(...)` is no use: `[LoggerMessage]`'s generated callback names its own method
    /// (`new EventId(1, nameof(PaymentDeclined))`), which nothing may call (testdata/Web's Log.PaymentDeclined).</summary>
    private static bool InNameof(SimpleNameSyntax name)
    {
        for (var node = name.Parent; node is not null and not StatementSyntax and not MemberDeclarationSyntax; node = node.Parent)
        {
            if (node is InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "nameof" } } call
                && call.ArgumentList.Span.Contains(name.Span)) return true;
        }
        return false;
    }

    /// <summary>Whether a name is the parameter a Razor component's tag sets: the generator writes `&lt;Badge Tone="3"&gt;`
    /// as `__builder.AddComponentParameter(8, nameof(global::App.Badge.Tone), ...)`, the name mapped to the attribute
    /// (MudBlazor's `&lt;MudButton Color="Color.Primary"&gt;`: its 198 docs files were no use of Color). Only the nameof's
    /// last name, the parameter; `AddAttribute` too, as older generators and some component forms write it.</summary>
    private static bool SetsComponentParameter(SimpleNameSyntax name)
    {
        var operand = name.Parent is MemberAccessExpressionSyntax access && access.Name == name ? access : (ExpressionSyntax)name;
        return operand.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax nameofCall } }
            && nameofCall.Expression is IdentifierNameSyntax { Identifier.ValueText: "nameof" }
            && nameofCall.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax call } }
            && call.Expression is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "AddComponentParameter" or "AddAttribute" };
    }

    /// <summary>The component whose parameter a string names in `AddAttribute(n, "ChildContent", ...)`: the Razor
    /// generator sets a RenderFragment parameter given as the tag's content (`&lt;Badge&gt;new&lt;/Badge&gt;`, `&lt;TitleContent&gt;`)
    /// by its name as text, after the `OpenComponent&lt;Badge&gt;` of its block (an element's attribute follows an
    /// `OpenElement`).</summary>
    private static TypeSyntax? OpenedComponent(LiteralExpressionSyntax literal)
    {
        if (literal.Parent is not ArgumentSyntax { Parent: ArgumentListSyntax arguments } argument
            || arguments.Arguments.IndexOf(argument) != 1
            || arguments.Parent is not InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "AddAttribute" } } call
            || call.Parent is not ExpressionStatementSyntax statement || statement.Parent is not BlockSyntax block) return null;
        for (var i = block.Statements.IndexOf(statement) - 1; i >= 0; i--)
        {
            if (block.Statements[i] is not ExpressionStatementSyntax { Expression: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax access } }) continue;
            if (access.Name is GenericNameSyntax { Identifier.ValueText: "OpenComponent", TypeArgumentList.Arguments.Count: 1 } open)
                return open.TypeArgumentList.Arguments[0];
            if (access.Name.Identifier.ValueText is "OpenElement" or "CloseElement" or "CloseComponent" or "OpenRegion" or "CloseRegion")
                return null;
        }
        return null;
    }

    /// <summary>The property named `name` of a component type or its bases (a parameter a base declares).</summary>
    private static IEnumerable<ISymbol> ComponentParameter(ITypeSymbol? component, string name)
    {
        for (var type = component as INamedTypeSymbol; type is not null; type = type.BaseType)
        {
            if (type.GetMembers(name).OfType<IPropertySymbol>().FirstOrDefault() is { } property) return [property];
        }
        return [];
    }

    /// <summary>The generator's type name: Roslyn names a generated document's path
    /// `{output}/{generator assembly}/{generator type}/{hint name}`, and a hint name may hold folders (the Razor
    /// generator's `Pages/Account/Login_cshtml.g.cs`).</summary>
    private static string GeneratorOf(SourceGeneratedDocument document)
    {
        var path = (document.FilePath ?? "").Replace('\\', '/');
        var hint = "/" + document.HintName.Replace('\\', '/');
        var folder = path.EndsWith(hint, StringComparison.Ordinal) ? path[..^hint.Length] : Path.GetDirectoryName(path) ?? "";
        var name = Path.GetFileName(folder);
        return string.IsNullOrEmpty(name) ? "unknown" : name;
    }

    /// <summary>Whether a name is declared in an indexed document of a compilation (the project's or one it
    /// references): the declaration tables answer without binding bodies; each name is asked once. Names only
    /// generated code declares (a Razor view's `Model`, `Html`, `Url`) are left out: they would bind whole
    /// generated bodies for nothing.
    /// One per project, shared by its shares (thread-safe: two shares may ask a name at once and both compute it).</summary>
    internal sealed class DeclaredNames(Compilation compilation, IReadOnlyList<Compilation> others, ISet<string> indexed)
    {
        private readonly System.Collections.Concurrent.ConcurrentDictionary<string, bool> _known = new(StringComparer.Ordinal);

        public bool Contains(string name) =>
            _known.GetOrAdd(name, n => DeclaresInIndexed(compilation, n) || others.Any(c => DeclaresInIndexed(c, n)));

        private bool DeclaresInIndexed(Compilation source, string name) =>
            source.ContainsSymbolsWithName(name, SymbolFilter.TypeAndMember)
            && source.GetSymbolsWithName(name, SymbolFilter.TypeAndMember).Any(s => DeclaredIn(s, indexed) is not null);
    }
}
