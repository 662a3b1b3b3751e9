using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// The string parameters a method of the solution hands, as they are, to a SQL sink: an ADO.NET command's CommandText
/// (assigned, in an initializer, or a command's constructor) or the SQL of a Dapper or EF Core raw-SQL call. Hangfire's
/// `DbCommandExtensions.Create(this DbConnection connection, string text, CommandType type)` sets
/// `command.CommandText = text`: `connection.Create("sp_getapplock", CommandType.StoredProcedure)` runs that
/// procedure (DbTableFacts.ThroughHelper). One level: a method handing its text on to such a helper is not one.
/// Analysed once per method (cached), binding only a body that names a sink; its flows are also facts of its own
/// document (SqlFlow), so a derived baseline extracts its callers again when they change (store/derive.py).
/// </summary>
internal static class SqlFlows
{
    private static readonly ConditionalWeakTable<IMethodSymbol, IReadOnlyList<int>> Cache = new();
    private static readonly ConditionalWeakTable<SyntaxTree, Lazy<string[]>> TreeNames = new();
    private static readonly ConditionalWeakTable<Compilation, Lazy<HashSet<string>>> CompilationNames = new();

    // Text a document declaring a helper holds: a command's text or constructor, Dapper (its extension methods need
    // `using Dapper;`), EF Core's raw SQL.
    private static readonly string[] Markers = ["CommandText", "Command(", "Dapper", "FromSql", "ExecuteSql", "SqlQuery"];

    /// <summary>Whether a method of this name, in the compilation or a project it references, may be a helper (by
    /// syntax alone): a call of any other name is not bound to find out. Computed once per compilation (Lazy: the
    /// walk's threads would each compute it).</summary>
    public static bool MayBe(Compilation compilation, string name) =>
        CompilationNames.GetValue(compilation, c => new Lazy<HashSet<string>>(() => c.SyntaxTrees
            .Concat(c.References.OfType<CompilationReference>().SelectMany(r => r.Compilation.SyntaxTrees))
            .SelectMany(t => TreeNames.GetValue(t, tree => new Lazy<string[]>(() => NamesIn(tree))).Value)
            .ToHashSet(StringComparer.Ordinal))).Value.Contains(name);

    /// <summary>The names of a document's methods that hand a string parameter to a sink, by syntax.</summary>
    private static string[] NamesIn(SyntaxTree tree)
    {
        var text = tree.GetText().ToString();
        if (!Markers.Any(m => text.Contains(m, StringComparison.Ordinal))) return [];
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var (id, sink) in Candidates(tree.GetRoot(), null))
        {
            if (sink.FirstAncestorOrSelf<MethodDeclarationSyntax>() is { } method
                && method.ParameterList.Parameters.Any(p => p.Identifier.ValueText == id.Identifier.ValueText && IsString(p.Type)))
                names.Add(method.Identifier.ValueText);
        }
        return [.. names];
    }

    public static bool IsString(TypeSyntax? type) =>
        (type is NullableTypeSyntax nullable ? nullable.ElementType : type) is PredefinedTypeSyntax { Keyword.ValueText: "string" };

    /// <summary>The ordinals (of the unreduced definition) of the method's string parameters that reach a sink.</summary>
    public static IReadOnlyList<int> Of(IMethodSymbol method, Compilation? context)
    {
        method = ConfigFlows.Definition(method);
        if (Cache.TryGetValue(method, out var known)) return known;
        if (method.DeclaringSyntaxReferences.Length != 1) return [];
        var names = method.Parameters.Where(p => p.Type.SpecialType == SpecialType.System_String)
            .ToDictionary(p => p.Name, p => p.Ordinal, StringComparer.Ordinal);
        if (names.Count == 0) return [];
        var syntax = method.DeclaringSyntaxReferences[0].GetSyntax();
        var candidates = Candidates(syntax, names).ToList();
        if (candidates.Count == 0) return Cache.GetValue(method, _ => []);
        var tree = syntax.SyntaxTree;
        var compilation = ConfigFlows.CompilationHolding(method, tree, context);
        if (compilation is null) return [];
        var model = compilation.GetSemanticModel(tree);
        var flows = new List<int>();
        foreach (var (text, sink) in candidates)
        {
            // The text must be the parameter itself (not a local or a lambda's parameter of the same name).
            if (model.GetSymbolInfo(text).Symbol is not IParameterSymbol { ContainingSymbol: IMethodSymbol owner } parameter
                || owner.MethodKind is MethodKind.AnonymousFunction or MethodKind.LocalFunction
                || flows.Contains(parameter.Ordinal) || !IsSink(model, sink)) continue;
            flows.Add(parameter.Ordinal);
        }
        flows.Sort();
        return Cache.GetValue(method, _ => flows);
    }

    /// <summary>By syntax alone: (a name handed to a sink, the sink), the name one of `names` when given.</summary>
    private static IEnumerable<(IdentifierNameSyntax Text, SyntaxNode Sink)> Candidates(SyntaxNode syntax, Dictionary<string, int>? names)
    {
        foreach (var node in syntax.DescendantNodes())
        {
            ExpressionSyntax? text = node switch
            {
                AssignmentExpressionSyntax { Left: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "CommandText" } } a => a.Right,
                AssignmentExpressionSyntax { Left: IdentifierNameSyntax { Identifier.ValueText: "CommandText" }, Parent: InitializerExpressionSyntax } a
                    => a.Right,
                ObjectCreationExpressionSyntax { ArgumentList.Arguments.Count: > 0 } c when FactSyntax.TypeName(c.Type)?.EndsWith("Command", StringComparison.Ordinal) == true
                    => FactSyntax.Arg(c.ArgumentList, 0, "cmdText")?.Expression,
                InvocationExpressionSyntax i when FactSyntax.NameText(i) is { } name && DbTableFacts.IsRawSqlMethod(name)
                    => FactSyntax.Arg(i.ArgumentList, 0, "sql")?.Expression,
                _ => null,
            };
            if (text is not null && FactSyntax.Unwrap(text) is IdentifierNameSyntax id && (names is null || names.ContainsKey(id.Identifier.ValueText)))
                yield return (id, node);
        }
    }

    private static bool IsSink(SemanticModel model, SyntaxNode sink) => sink switch
    {
        AssignmentExpressionSyntax a => DbTableFacts.CommandTextConfidence(model, a.Left is MemberAccessExpressionSyntax m ? m.Name : (SimpleNameSyntax)a.Left) is not null,
        ObjectCreationExpressionSyntax c => DbTableFacts.CommandCreationConfidence(model, c) is not null,
        InvocationExpressionSyntax i => DbTableFacts.RawSqlConfidence(model, i, FactSyntax.NameText(i)!) is not null,
        _ => false,
    };
}
