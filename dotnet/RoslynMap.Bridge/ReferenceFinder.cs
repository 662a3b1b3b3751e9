using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Operations;

namespace RoslynMap.Bridge;

/// <summary>
/// Test oracle: SymbolFinder's references to one symbol. "locations" are references to exactly
/// that symbol in code, "doc_comments" those inside XML doc comments (crefs, which the index
/// leaves out), "implicit" the implicit ones, and "cascaded" references Roslyn files under
/// related symbols (constructors of a type, accessors, overrides...) with the id of the symbol
/// they point at. Every location carries the kind Roslyn's own APIs give it (Classify), for the
/// proof to compare with the walker's: implicit (ImplicitCall, or Instantiate for a target-typed
/// `new()`), written to (Write), and otherwise the operation the reference sits in.
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

        var direct = new SortedSet<(string, int, int, string)>();
        var implicitOnes = new SortedSet<(string, int, int, string)>();
        var docComments = new SortedSet<(string, int, int, string)>();
        var cascaded = new SortedSet<(string, int, int, string, string)>();
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
                    var kind = Classify(location, referenced.Definition.OriginalDefinition);
                    var key = (paths.Relative(span.Path), span.StartLinePosition.Line + 1, span.StartLinePosition.Character + 1, kind);
                    if (IsInDocComment(location.Location)) { if (isTarget) docComments.Add(key); }
                    else if (!isTarget) cascaded.Add((key.Item1, key.Item2, key.Item3, kind, definitionId));
                    else if (location.IsImplicit) implicitOnes.Add(key);
                    else direct.Add(key);
                }
            }
        }

        return Json.Write(w =>
        {
            w.WriteStartObject();
            w.WriteBoolean("resolved", symbol is not null);
            WriteLocations(w, "locations", direct.Select(l => (l.Item1, l.Item2, l.Item3, l.Item4, (string?)null)));
            WriteLocations(w, "doc_comments", docComments.Select(l => (l.Item1, l.Item2, l.Item3, l.Item4, (string?)null)));
            WriteLocations(w, "implicit", implicitOnes.Select(l => (l.Item1, l.Item2, l.Item3, l.Item4, (string?)null)));
            WriteLocations(w, "cascaded", cascaded.Select(l => (l.Item1, l.Item2, l.Item3, l.Item4, (string?)l.Item5)));
            w.WriteEndObject();
        });
    }

    private static bool IsInDocComment(Location location)
    {
        if (location.SourceTree is not { } tree) return false;
        var token = tree.GetRoot().FindToken(location.SourceSpan.Start, findInsideTrivia: true);
        return token.Parent?.FirstAncestorOrSelf<DocumentationCommentTriviaSyntax>(ascendOutOfTrivia: false) is not null;
    }

    /// <summary>The reference kind of one SymbolFinder location, from Roslyn's view of it: implicit,
    /// written to, or the operation around it (an invocation is a Call, a creation an Instantiate).
    /// Types are classified by where the name stands (creation, base list, elsewhere).</summary>
    private static string Classify(ReferenceLocation location, ISymbol definition)
    {
        if (location.IsImplicit)
            return definition is IMethodSymbol { MethodKind: MethodKind.Constructor } ? "Instantiate" : "ImplicitCall";
        if (location.Location.SourceTree is not { } tree) return "Read";
        var token = tree.GetRoot().FindToken(location.Location.SourceSpan.Start);
        if (definition is INamedTypeSymbol type)
        {
            SyntaxNode name = token.Parent!;
            // `N.T` stands for T, while `T` in `T.Nested` is only a qualifier.
            while (name.Parent is QualifiedNameSyntax q && q.Right == name || name.Parent is AliasQualifiedNameSyntax a && a.Name == name)
                name = name.Parent;
            return name.Parent switch
            {
                ObjectCreationExpressionSyntax creation when creation.Type == name => "Instantiate",
                BaseTypeSyntax when type.TypeKind == TypeKind.Interface => "Implementation",
                _ => "TypeRef",
            };
        }
        // `[Retry(Attempts = 0)]`: the index's AttributeArgument (ReferenceClassifier), set when the attribute is read.
        if (token.Parent is IdentifierNameSyntax { Parent: NameEqualsSyntax { Parent: AttributeArgumentSyntax } })
            return "AttributeArgument";
        var model = location.Document.GetSemanticModelAsync().GetAwaiter().GetResult()!;
        for (var node = token.Parent; node is not null; node = node.Parent)
        {
            switch (model.GetOperation(node))
            {
                case null:
                    continue;
                case IInvocationOperation or IBinaryOperation { OperatorMethod: not null } or IUnaryOperation { OperatorMethod: not null }
                    or IIncrementOrDecrementOperation { OperatorMethod: not null } or IConversionOperation { OperatorMethod: not null }
                    or ICompoundAssignmentOperation { OperatorMethod: not null }:
                    return "Call";
                case IObjectCreationOperation:
                    return "Instantiate";
                case var operation:
                    return IsWritten(operation) ? "Write" : "Read";
            }
        }
        return "Read";
    }

    /// <summary>An assignment's target (simple, compound, deconstruction), ++/--, an event
    /// subscription, or a ref/out argument.</summary>
    private static bool IsWritten(IOperation operation)
    {
        var node = operation;
        while (node.Parent is IParenthesizedOperation or ITupleOperation) node = node.Parent;
        return node.Parent switch
        {
            IAssignmentOperation assignment => assignment.Target == node,
            IIncrementOrDecrementOperation => true,
            IEventAssignmentOperation subscription => subscription.EventReference == node,
            IArgumentOperation argument => argument.Parameter?.RefKind is RefKind.Ref or RefKind.Out,
            _ => false,
        };
    }

    private static void WriteLocations(System.Text.Json.Utf8JsonWriter w, string name, IEnumerable<(string File, int Line, int Col, string Kind, string? Id)> rows)
    {
        w.WriteStartArray(name);
        foreach (var r in rows)
        {
            w.WriteStartArray();
            w.WriteStringValue(r.File);
            w.WriteNumberValue(r.Line);
            w.WriteNumberValue(r.Col);
            w.WriteStringValue(r.Kind);
            if (r.Id is not null) w.WriteStringValue(r.Id);
            w.WriteEndArray();
        }
        w.WriteEndArray();
    }
}
