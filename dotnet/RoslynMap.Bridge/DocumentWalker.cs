using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMap.Bridge.Facts;

namespace RoslynMap.Bridge;

/// <summary>
/// The single walk over one document: declarations go to the SymbolExtractor, names and
/// creations to the ReferenceClassifier, and the innermost enclosing indexed symbol is carried
/// along as the "from" of every reference.
/// </summary>
internal sealed class DocumentWalker : CSharpSyntaxWalker
{
    private readonly DocumentContext _ctx;
    private readonly SymbolExtractor _symbols;
    private readonly ReferenceClassifier _refs;
    private readonly ImplicitCalls _implicit;
    private readonly FactDispatcher? _facts;
    private readonly Dictionary<ParameterListSyntax, string> _primaryConstructors = new();
    private string? _from;
    private string? _mainId;
    private bool _mainSeen;

    public DocumentWalker(DocumentContext ctx) : base(SyntaxWalkerDepth.Node)
    {
        _ctx = ctx;
        _symbols = new SymbolExtractor(ctx);
        _refs = new ReferenceClassifier(ctx);
        _implicit = new ImplicitCalls(ctx, _refs);
        _facts = ctx.Facts ? new FactDispatcher(ctx) : null;
    }

    /// <summary>Walks the whole document, then completes the facts that need all of it.</summary>
    public void Walk(SyntaxNode root)
    {
        Visit(root);
        _facts?.Complete();
    }

    public override void Visit(SyntaxNode? node)
    {
        switch (node)
        {
            case null:
                return;
            case BaseTypeDeclarationSyntax type:
                VisitType(type);
                return;
            case DelegateDeclarationSyntax or BaseMethodDeclarationSyntax or BasePropertyDeclarationSyntax or EnumMemberDeclarationSyntax:
                var memberId = _symbols.DeclareNode(node);
                _facts?.Declaration(node, memberId);
                WithFrom(memberId, node);
                return;
            case BaseFieldDeclarationSyntax field:
                VisitField(field);
                return;
            case GlobalStatementSyntax global:
                VisitGlobal(global);
                return;
            case ParameterListSyntax list when _primaryConstructors.TryGetValue(list, out var ctorId):
                WithFrom(ctorId, node);
                return;
            case SimpleNameSyntax name:
                _refs.Name(name, _from);
                break;
            case BaseObjectCreationExpressionSyntax creation:
                _refs.ObjectCreation(creation, _from);
                _facts?.ObjectCreation(creation, _from);
                break;
            case InvocationExpressionSyntax invocation:
                _facts?.Invocation(invocation, _from);
                break;
            case AssignmentExpressionSyntax assignment:
                _facts?.Assignment(assignment, _from);
                if (assignment.IsKind(SyntaxKind.SimpleAssignmentExpression))
                {
                    _implicit.Deconstruction(assignment, _from);
                    _implicit.Conversion(assignment.Right, _from);
                }
                break;
            // Calls the compiler makes for the code (ImplicitCalls).
            case CommonForEachStatementSyntax loop:
                _implicit.ForEach(loop, _from);
                break;
            case InitializerExpressionSyntax initializer:
                _implicit.CollectionInitializer(initializer, _from);
                if (initializer.IsKind(SyntaxKind.ArrayInitializerExpression))
                    foreach (var element in initializer.Expressions) _implicit.Conversion(element, _from);
                break;
            case AwaitExpressionSyntax awaited:
                _implicit.Await(awaited, _from);
                break;
            case UsingStatementSyntax usingStatement:
                _implicit.Using(usingStatement, _from);
                break;
            case LocalDeclarationStatementSyntax local:
                _implicit.Using(local, _from);
                break;
            case QueryExpressionSyntax query:
                _implicit.Query(query, _from);
                break;
            case EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax or PropertyDeclarationSyntax or ParameterSyntax } equals:
                _implicit.Conversion(equals.Value, _from);
                break;
            case ArgumentSyntax { Parent: ArgumentListSyntax or BracketedArgumentListSyntax } argument:
                _implicit.Conversion(argument.Expression, _from);
                break;
            case ReturnStatementSyntax { Expression: { } returned }:
                _implicit.Conversion(returned, _from);
                break;
            case YieldStatementSyntax { Expression: { } yielded }:
                _implicit.Conversion(yielded, _from);
                break;
            case ArrowExpressionClauseSyntax arrow:
                _implicit.Conversion(arrow.Expression, _from);
                break;
            case ExpressionElementSyntax element:
                _implicit.Conversion(element.Expression, _from);
                break;
            case ThrowStatementSyntax or ThrowExpressionSyntax:
                _facts?.Throw(node, _from);
                break;
            case ElementAccessExpressionSyntax access:
                _refs.ElementAccess(access, _from);
                _facts?.ElementAccess(access, _from);
                break;
            // Operators on user types: cheap syntax filters first, the model only for candidates.
            case BinaryExpressionSyntax binary when !binary.IsKind(SyntaxKind.LogicalAndExpression)
                                                   && !binary.IsKind(SyntaxKind.LogicalOrExpression)
                                                   && !binary.IsKind(SyntaxKind.CoalesceExpression)
                                                   && !binary.IsKind(SyntaxKind.AsExpression)
                                                   && !binary.IsKind(SyntaxKind.IsExpression):
                _refs.OperatorUse(binary, binary.OperatorToken, _from);
                break;
            case PrefixUnaryExpressionSyntax prefix:
                _refs.OperatorUse(prefix, prefix.OperatorToken, _from);
                break;
            case CastExpressionSyntax cast:
                _refs.OperatorUse(cast, cast.OpenParenToken, _from);
                break;
            case ConstructorInitializerSyntax init:
                _refs.ConstructorCall(init, init.ThisOrBaseKeyword, _from);
                break;
            case PrimaryConstructorBaseTypeSyntax primaryBase:
                // `: Base(x)` is the primary constructor's initializer.
                var caller = primaryBase.Parent?.Parent is TypeDeclarationSyntax { ParameterList: { } own }
                    && _primaryConstructors.TryGetValue(own, out var ownCtor) ? ownCtor : _from;
                _refs.ConstructorCall(primaryBase, AnchorOf(primaryBase.Type), caller);
                break;
        }
        base.Visit(node);
    }

    private void WithFrom(string? id, SyntaxNode node)
    {
        var saved = _from;
        _from = id ?? saved;
        base.Visit(node);
        _from = saved;
    }

    private void VisitType(BaseTypeDeclarationSyntax type)
    {
        var id = _symbols.DeclareNode(type);
        if (type is TypeDeclarationSyntax { ParameterList: { } list } td
            && _ctx.Model.GetDeclaredSymbol(type) is INamedTypeSymbol typeSymbol)
        {
            var ctorId = _symbols.DeclarePrimaryConstructor(td, typeSymbol);
            if (ctorId is not null) _primaryConstructors[list] = ctorId;
            if (typeSymbol.IsRecord) _symbols.DeclarePositionalProperties(td, typeSymbol);
        }
        _facts?.Declaration(type, id);
        WithFrom(id, type);
    }

    /// <summary>Each declarator is its own symbol; the shared type and attributes are referenced
    /// from the first one.</summary>
    private void VisitField(BaseFieldDeclarationSyntax field)
    {
        var saved = _from;
        var ids = field.Declaration.Variables.Select(v => _symbols.DeclareVariable(v, field)).ToList();
        var first = ids.FirstOrDefault(i => i is not null) ?? saved;
        _from = first;
        foreach (var attributes in field.AttributeLists) Visit(attributes);
        Visit(field.Declaration.Type);
        for (var i = 0; i < ids.Count; i++)
        {
            _from = ids[i] ?? first;
            Visit(field.Declaration.Variables[i]);
        }
        _from = saved;
    }

    /// <summary>Top-level statements belong to the synthesized `&lt;Main&gt;$`, declared once at the
    /// first global statement.</summary>
    private void VisitGlobal(GlobalStatementSyntax global)
    {
        if (!_mainSeen)
        {
            _mainSeen = true;
            var enclosing = _ctx.Model.GetEnclosingSymbol(global.Statement.SpanStart);
            while (enclosing is not null and not IMethodSymbol { Name: WellKnownMemberNames.TopLevelStatementsEntryPointMethodName })
                enclosing = enclosing.ContainingSymbol;
            if (enclosing is IMethodSymbol main)
            {
                var unit = (CompilationUnitSyntax)global.Parent!;
                var last = unit.Members.OfType<GlobalStatementSyntax>().Last();
                _mainId = _symbols.DeclareTopLevelMain(main, global, last);
            }
        }
        WithFrom(_mainId, global);
    }

    private static SyntaxToken AnchorOf(TypeSyntax type) => type switch
    {
        SimpleNameSyntax s => s.Identifier,
        QualifiedNameSyntax q => q.Right.Identifier,
        _ => type.GetFirstToken(),
    };
}
