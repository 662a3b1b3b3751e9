using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge;

/// <summary>
/// Calls the compiler makes on the code's behalf, recorded as `ImplicitCall`: foreach
/// (GetEnumerator, MoveNext, Current, the enumerator's Dispose), deconstruction (Deconstruct),
/// collection initializers (Add), await (GetAwaiter, IsCompleted, GetResult), using (Dispose,
/// DisposeAsync), query syntax (Select, Where, SelectMany, OrderBy, ...) and user-defined implicit
/// conversions. Each binding comes from the semantic model's own API for the construct. Only members
/// declared in the solution are recorded: a framework enumerator or awaiter would add rows to every
/// loop and await and answer nothing an agent asks. Anchors are where SymbolFinder reports the same
/// implicit references (tests/test_correctness.py).
/// </summary>
internal sealed class ImplicitCalls
{
    private readonly DocumentContext _ctx;
    private readonly ReferenceClassifier _refs;

    public ImplicitCalls(DocumentContext ctx, ReferenceClassifier refs)
    {
        _ctx = ctx;
        _refs = refs;
    }

    /// <summary>`foreach (x in e)` / `foreach (var (a, b) in e)`, at the `foreach` keyword
    /// (`await` for `await foreach`); a deconstructing loop variable also calls Deconstruct.</summary>
    public void ForEach(CommonForEachStatementSyntax loop, string? from)
    {
        var anchor = loop.GetFirstToken();
        var info = _ctx.Model.GetForEachStatementInfo(loop);
        Record(info.GetEnumeratorMethod, anchor, from);
        Record(info.MoveNextMethod, anchor, from);
        Record(info.CurrentProperty, anchor, from);
        Record(info.DisposeMethod, anchor, from);
        if (info.ElementConversion is { IsUserDefined: true, IsImplicit: true, MethodSymbol: { } convert })
            Record(convert, anchor, from);
        if (loop is ForEachVariableStatementSyntax deconstructing)
            Deconstruction(_ctx.Model.GetDeconstructionInfo(deconstructing), deconstructing.Variable.GetFirstToken(), from);
    }

    /// <summary>`(a, b) = e` and `var (a, b) = e`, at the start of the left side.</summary>
    public void Deconstruction(AssignmentExpressionSyntax assignment, string? from)
    {
        if (assignment.Left is not (TupleExpressionSyntax or DeclarationExpressionSyntax)) return;
        Deconstruction(_ctx.Model.GetDeconstructionInfo(assignment), assignment.Left.GetFirstToken(), from);
    }

    private void Deconstruction(DeconstructionInfo info, SyntaxToken anchor, string? from)
    {
        Record(info.Method, anchor, from);
        foreach (var nested in info.Nested) Deconstruction(nested, anchor, from);
    }

    /// <summary>Each element of `new T { a, b }` calls Add, at the element's first token.</summary>
    public void CollectionInitializer(InitializerExpressionSyntax initializer, string? from)
    {
        if (!initializer.IsKind(SyntaxKind.CollectionInitializerExpression)) return;
        foreach (var element in initializer.Expressions)
            Record(_ctx.Model.GetCollectionInitializerSymbolInfo(element).Symbol, element.GetFirstToken(), from);
    }

    /// <summary>`await e`, at the `await` keyword.</summary>
    public void Await(AwaitExpressionSyntax await, string? from)
    {
        var info = _ctx.Model.GetAwaitExpressionInfo(await);
        Record(info.GetAwaiterMethod, await.AwaitKeyword, from);
        Record(info.IsCompletedProperty, await.AwaitKeyword, from);
        Record(info.GetResultMethod, await.AwaitKeyword, from);
    }

    /// <summary>`using (r)`, `using (var r = ...)` and `using var r = ...;`, at the `using` keyword:
    /// the Dispose (DisposeAsync for `await using`) the resource's static type implements, by the
    /// interface or, for a ref struct, by the pattern.</summary>
    public void Using(UsingStatementSyntax statement, string? from)
    {
        var type = statement.Declaration is { } declaration
            ? _ctx.Model.GetTypeInfo(declaration.Type).Type
            : statement.Expression is { } expression ? _ctx.Model.GetTypeInfo(expression).Type : null;
        Dispose(type, statement.AwaitKeyword.IsKind(SyntaxKind.AwaitKeyword), statement.UsingKeyword, from);
    }

    public void Using(LocalDeclarationStatementSyntax declaration, string? from)
    {
        if (!declaration.UsingKeyword.IsKind(SyntaxKind.UsingKeyword)) return;
        Dispose(_ctx.Model.GetTypeInfo(declaration.Declaration.Type).Type,
            declaration.AwaitKeyword.IsKind(SyntaxKind.AwaitKeyword), declaration.UsingKeyword, from);
    }

    private void Dispose(ITypeSymbol? type, bool isAsync, SyntaxToken anchor, string? from)
    {
        if (type is null or { TypeKind: TypeKind.Error }) return;
        var name = isAsync ? "DisposeAsync" : "Dispose";
        var contract = _ctx.Model.Compilation.GetTypeByMetadataName(isAsync ? "System.IAsyncDisposable" : "System.IDisposable")
            ?.GetMembers(name).FirstOrDefault();
        var target = contract is null ? null
            : type.TypeKind == TypeKind.Interface ? (SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, contract.ContainingType) ? contract : null)
            : type.FindImplementationForInterfaceMember(contract);
        target ??= type.IsRefLikeType
            ? type.GetMembers(name).OfType<IMethodSymbol>().FirstOrDefault(m => !m.IsStatic && m.Parameters.Length == 0)
            : null;
        Record(target, anchor, from);
    }

    /// <summary>Each query clause calls the method it translates to, at the clause's first token
    /// (`where`, `select`, `orderby`'s ordering, ...); a typed range variable also calls Cast.</summary>
    public void Query(QueryExpressionSyntax query, string? from)
    {
        Clause(query.FromClause, from);
        Body(query.Body, from);
    }

    private void Body(QueryBodySyntax body, string? from)
    {
        foreach (var clause in body.Clauses)
        {
            Clause(clause, from);
            if (clause is OrderByClauseSyntax orderBy)
                foreach (var ordering in orderBy.Orderings)
                    Record(_ctx.Model.GetSymbolInfo(ordering).Symbol, ordering.GetFirstToken(), from);
        }
        Record(_ctx.Model.GetSymbolInfo(body.SelectOrGroup).Symbol, body.SelectOrGroup.GetFirstToken(), from);
        if (body.Continuation is { } continuation) Body(continuation.Body, from);
    }

    private void Clause(QueryClauseSyntax clause, string? from)
    {
        var info = _ctx.Model.GetQueryClauseInfo(clause);
        var anchor = clause.GetFirstToken();
        Record(info.CastInfo.Symbol, anchor, from);
        Record(info.OperationInfo.Symbol, anchor, from);
    }

    /// <summary>A user-defined implicit conversion of a value where C# converts to a declared target:
    /// an initializer, an assignment's right side, an argument, a return or yield, an expression body,
    /// an element of an array or collection. At the value's first token.</summary>
    public void Conversion(ExpressionSyntax value, string? from)
    {
        if (!MayConvert(_ctx.Model.Compilation)) return;
        if (_ctx.Model.GetConversion(value) is { IsUserDefined: true, IsImplicit: true, MethodSymbol: { } method })
            Record(method, value.GetFirstToken(), from);
    }

    // Whether a compilation can see a user-defined implicit conversion declared in source (its own or a
    // referenced project's): only those are recorded, and most solutions declare none, so the question
    // GetConversion answers for every argument, return and initializer is skipped for them.
    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<Compilation, object> Converts = new();

    public static bool MayConvert(Compilation compilation) =>
        (bool)Converts.GetValue(compilation, c =>
            Declares(c) || c.References.OfType<CompilationReference>().Any(r => Declares(r.Compilation)));

    // The compiler's own index of declared names: a conversion operator is declared as op_Implicit.
    private static bool Declares(Compilation compilation) =>
        compilation.ContainsSymbolsWithName(WellKnownMemberNames.ImplicitConversionName, SymbolFilter.Member);

    private void Record(ISymbol? target, SyntaxToken anchor, string? from)
    {
        if (target is null) return;
        var definition = SymbolFacts.Definition(target);
        if (definition.DeclaringSyntaxReferences.IsDefaultOrEmpty || !SymbolFacts.IsReferenceable(definition)) return;
        _refs.AddImplicit(definition, anchor, from);
    }
}
