using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Service registrations: Add/TryAdd/AddKeyed/TryAddKeyed + Scoped/Transient/Singleton in generic,
/// typeof, factory and instance forms. Service and implementation ids are in the detail so that
/// calls through an interface can be followed to the registered implementation.
/// </summary>
internal sealed class DiFacts
{
    private readonly FactSink _sink;

    public DiFacts(FactSink sink)
    {
        _sink = sink;
    }

    public static IEnumerable<string> InvocationNames =>
        from prefix in new[] { "Add", "TryAdd", "AddKeyed", "TryAddKeyed" }
        from lifetime in new[] { "Scoped", "Transient", "Singleton" }
        select prefix + lifetime;

    private sealed record Service(string Name, string? Id);

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.DependencyInjection);
        if (binding == Binding.Other) return;
        if (binding == Binding.Unbound && !FactSyntax.NameContains(FactSyntax.Receiver(inv), "services")) return;

        var isTry = name.StartsWith("Try", StringComparison.Ordinal);
        var keyed = name.Contains("Keyed", StringComparison.Ordinal);
        var lifetime = name[(name.LastIndexOf("Add", StringComparison.Ordinal) + 3)..].Replace("Keyed", "");
        var method = symbol as IMethodSymbol;

        var args = inv.ArgumentList.Arguments;
        var typeofArgs = args.Select(a => FactSyntax.Unwrap(a.Expression)).OfType<TypeOfExpressionSyntax>().ToList();
        var factory = args.FirstOrDefault(IsFactory);
        // Keyed overloads take the key right after the service type: the first argument that is
        // neither a typeof nor a factory (an instance always comes after it).
        var keyArg = keyed ? args.FirstOrDefault(a => FactSyntax.Unwrap(a.Expression) is not TypeOfExpressionSyntax && !IsFactory(a)) : null;
        var others = args.Where(a => a != keyArg && a != factory && FactSyntax.Unwrap(a.Expression) is not TypeOfExpressionSyntax).ToList();

        Service service;
        Service? implementation;
        string form;
        var typeArgs = TypeArguments(inv, method);
        if (typeofArgs.Count > 0)
        {
            form = "typeof";
            service = Named(typeofArgs[0].Type);
            implementation = typeofArgs.Count > 1 ? Named(typeofArgs[1].Type) : factory is null ? service : FactoryResult(factory);
        }
        else if (typeArgs.Count > 0)
        {
            service = typeArgs[0];
            if (factory is not null)
            {
                form = "factory";
                implementation = typeArgs.Count > 1 ? typeArgs[1] : FactoryResult(factory);
            }
            else if (others.Count > 0)
            {
                form = "instance";
                implementation = typeArgs.Count > 1 ? typeArgs[1] : InstanceType(others[0].Expression);
            }
            else
            {
                form = "generic";
                implementation = typeArgs.Count > 1 ? typeArgs[1] : service;
            }
        }
        else return;

        var key = keyArg is null ? null : KeyText(keyArg.Expression);
        _sink.Add(FactKinds.DiRegistration, from, FactSyntax.Name(inv)!.SpanStart, FrameworkApi.ConfidenceOf(binding)!, service.Name,
            new FactDetail().Add("lifetime", lifetime).Add("implementation", implementation?.Name).Add("form", form)
                .Add("try", isTry).Add("key", key).Add("service_id", service.Id).Add("implementation_id", implementation?.Id));
    }

    /// <summary>A lambda or a method group given as the factory.</summary>
    private bool IsFactory(ArgumentSyntax arg)
    {
        if (FactSyntax.IsLambda(arg.Expression)) return true;
        if (FactSyntax.Unwrap(arg.Expression) is not (IdentifierNameSyntax or MemberAccessExpressionSyntax)) return false;
        var info = _sink.Model.GetSymbolInfo(arg.Expression);
        return Bound.ForFacts(info) is IMethodSymbol;
    }

    /// <summary>Type arguments as bound (inferred ones included), else as written.</summary>
    private List<Service> TypeArguments(InvocationExpressionSyntax inv, IMethodSymbol? method)
    {
        if (method is { TypeArguments.Length: > 0 } && method.TypeArguments.All(t => t.TypeKind != TypeKind.Error))
            return method.TypeArguments.Select(Named).ToList();
        return FactSyntax.TypeArgs(inv).Select(Named).ToList();
    }

    private Service Named(ITypeSymbol type) => new(FactSyntax.TypeName(type), _sink.IdOf(type));

    private Service Named(TypeSyntax type)
    {
        var symbol = _sink.Model.GetTypeInfo(type).Type;
        return symbol is null or { TypeKind: TypeKind.Error } ? new Service(FactSyntax.Collapse(type.ToString()), null) : Named(symbol);
    }

    /// <summary>`sp => new Impl(...)` (or a block returning one): the implementation is Impl.</summary>
    private Service? FactoryResult(ArgumentSyntax factory)
    {
        var body = FactSyntax.Unwrap(factory.Expression) is AnonymousFunctionExpressionSyntax f ? f.Body : null;
        var result = body switch
        {
            ExpressionSyntax e => e,
            BlockSyntax b => b.Statements.OfType<ReturnStatementSyntax>().LastOrDefault()?.Expression,
            _ => null,
        };
        return result is not null && FactSyntax.Unwrap(result) is ObjectCreationExpressionSyntax creation ? Named(creation.Type) : null;
    }

    private Service? InstanceType(ExpressionSyntax instance)
    {
        if (FactSyntax.Unwrap(instance) is ObjectCreationExpressionSyntax creation) return Named(creation.Type);
        return _sink.Model.GetTypeInfo(instance).Type is { TypeKind: not TypeKind.Error } t ? Named(t) : null;
    }

    private string KeyText(ExpressionSyntax key)
    {
        // String keys by value; anything else (enum members, objects) as written.
        return FactSyntax.ConstantString(_sink.Model, key) ?? FactSyntax.Collapse(key.ToString());
    }
}
