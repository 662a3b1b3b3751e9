using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>A service or implementation type of a registration: its short name, and its id and symbol when bound.</summary>
internal sealed record DiType(string Name, string? Id, ITypeSymbol? Symbol = null);

/// <summary>How registrations name their types (shared by the Microsoft.Extensions.DependencyInjection and
/// Autofac extractors): bound where the compiler knows the type, as written otherwise.</summary>
internal sealed class DiTypes
{
    private readonly FactSink _sink;

    public DiTypes(FactSink sink)
    {
        _sink = sink;
    }

    public DiType Named(ITypeSymbol type) => new(FactSyntax.TypeName(type), _sink.IdOf(type), type);

    public DiType Named(TypeSyntax type)
    {
        var symbol = _sink.Model.GetTypeInfo(type).Type;
        return symbol is null or { TypeKind: TypeKind.Error } ? new DiType(FactSyntax.Collapse(type.ToString()), null) : Named(symbol);
    }

    /// <summary>Type arguments as bound (inferred ones included), else as written.</summary>
    public List<DiType> TypeArguments(InvocationExpressionSyntax inv, IMethodSymbol? method)
    {
        if (method is { TypeArguments.Length: > 0 } && method.TypeArguments.All(t => t.TypeKind != TypeKind.Error))
            return method.TypeArguments.Select(Named).ToList();
        return FactSyntax.TypeArgs(inv).Select(Named).ToList();
    }

    /// <summary>The types of the call's `typeof(...)` arguments, in order.</summary>
    public List<DiType> TypeofArguments(InvocationExpressionSyntax inv) =>
        inv.ArgumentList.Arguments.Select(a => FactSyntax.Unwrap(a.Expression)).OfType<TypeOfExpressionSyntax>()
            .Select(t => Named(t.Type)).ToList();

    /// <summary>`sp => new Impl(...)` (or a block returning one): the implementation is Impl.</summary>
    public DiType? FactoryResult(ExpressionSyntax factory) =>
        FactoryReturn(factory) is { } result && FactSyntax.Unwrap(result) is ObjectCreationExpressionSyntax creation ? Named(creation.Type) : null;

    /// <summary>Every other type a factory lambda creates (`sp => new LoggingFactory(new DefaultFactory())`: DefaultFactory),
    /// bound ones only, the first 8: a decorator built by hand wraps them (Hangfire's samples), so they run too.</summary>
    public List<string> ConstructedInside(ExpressionSyntax factory, DiType? made)
    {
        var ids = new List<string>();
        if (FactSyntax.Unwrap(factory) is not AnonymousFunctionExpressionSyntax f) return ids;
        foreach (var creation in f.Body.DescendantNodesAndSelf().OfType<ObjectCreationExpressionSyntax>())
        {
            if (Named(creation.Type).Id is { } id && id != made?.Id && !ids.Contains(id)) ids.Add(id);
            if (ids.Count == 8) break;
        }
        return ids;
    }

    private static readonly HashSet<string> Resolves = new(StringComparer.Ordinal)
    {
        "GetRequiredService", "GetService", "GetRequiredKeyedService", "GetKeyedService",
    };

    /// <summary>`sp => sp.GetRequiredService&lt;Mailer&gt;()` (GetService, the keyed ones, `(T)sp.GetRequiredService(typeof(T))`,
    /// `as T`, or a block returning one or a local holding one): the factory hands over the service T, registered apart; DI makes T (BTCPay's
    /// `AddSingleton&lt;IHostedService&gt;(sp => sp.GetRequiredService&lt;Mailer&gt;())` had no implementation).</summary>
    public DiType? FactoryForward(ExpressionSyntax factory)
    {
        if (FactoryReturn(factory) is not { } result) return null;
        var e = FactSyntax.Unwrap(result);
        // `var mailer = sp.GetService<Mailer>(); return mailer!;`: the local's initializer, in the lambda's block.
        if (e is IdentifierNameSyntax local && result.Ancestors().OfType<BlockSyntax>().FirstOrDefault() is { } block
            && block.Statements.OfType<LocalDeclarationStatementSyntax>().SelectMany(d => d.Declaration.Variables)
                .FirstOrDefault(v => v.Identifier.ValueText == local.Identifier.ValueText)?.Initializer?.Value is { } held)
            e = FactSyntax.Unwrap(held);
        while (true)
        {
            if (e is CastExpressionSyntax cast) e = FactSyntax.Unwrap(cast.Expression);
            else if (e is BinaryExpressionSyntax { RawKind: (int)SyntaxKind.AsExpression } asType) e = FactSyntax.Unwrap(asType.Left);
            else break;
        }
        if (e is not InvocationExpressionSyntax call || FactSyntax.NameText(call) is not { } name || !Resolves.Contains(name)) return null;
        if (FactSyntax.TypeArgs(call) is [var typeArg]) return Named(typeArg);
        return FactSyntax.Arg(call.ArgumentList, 0) is { } first && FactSyntax.Unwrap(first.Expression) is TypeOfExpressionSyntax t
            ? Named(t.Type) : null;
    }

    /// <summary>What a factory lambda returns: its expression body, or its block's last `return`.</summary>
    private static ExpressionSyntax? FactoryReturn(ExpressionSyntax factory) =>
        (FactSyntax.Unwrap(factory) is AnonymousFunctionExpressionSyntax f ? f.Body : null) switch
        {
            ExpressionSyntax e => e,
            BlockSyntax b => b.Statements.OfType<ReturnStatementSyntax>().LastOrDefault()?.Expression,
            _ => null,
        };

    /// <summary>The type of an instance handed over: what `new` creates, else the expression's type when that is a
    /// class one can create. An instance typed as an interface or an abstract class (SimplCommerce's
    /// `(IModuleInitializer)Activator.CreateInstance(type)`) is of a class known only at run time: null, not the
    /// interface shown as its own implementation.</summary>
    public DiType? InstanceType(ExpressionSyntax instance)
    {
        if (FactSyntax.Unwrap(instance) is ObjectCreationExpressionSyntax creation) return Named(creation.Type);
        return _sink.Model.GetTypeInfo(instance).Type is { TypeKind: not (TypeKind.Error or TypeKind.Interface) } t
               && !(t.IsAbstract && t.TypeKind == TypeKind.Class) ? Named(t) : null;
    }
}
