using Microsoft.CodeAnalysis;
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
    public DiType? FactoryResult(ExpressionSyntax factory)
    {
        var body = FactSyntax.Unwrap(factory) is AnonymousFunctionExpressionSyntax f ? f.Body : null;
        var result = body switch
        {
            ExpressionSyntax e => e,
            BlockSyntax b => b.Statements.OfType<ReturnStatementSyntax>().LastOrDefault()?.Expression,
            _ => null,
        };
        return result is not null && FactSyntax.Unwrap(result) is ObjectCreationExpressionSyntax creation ? Named(creation.Type) : null;
    }

    /// <summary>The type of an instance handed over: what `new` creates, else the expression's type.</summary>
    public DiType? InstanceType(ExpressionSyntax instance)
    {
        if (FactSyntax.Unwrap(instance) is ObjectCreationExpressionSyntax creation) return Named(creation.Type);
        return _sink.Model.GetTypeInfo(instance).Type is { TypeKind: not TypeKind.Error } t ? Named(t) : null;
    }
}
