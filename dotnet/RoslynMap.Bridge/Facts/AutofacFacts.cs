using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Autofac registrations on a ContainerBuilder (kgrzybek/modular-monolith-with-ddd, nopCommerce):
/// `RegisterType`, `RegisterGeneric`, `Register(factory)`, `RegisterInstance`, `RegisterAssemblyTypes`,
/// `RegisterDecorator`/`RegisterGenericDecorator` and `RegisterModule`, read with the fluent chain that follows
/// (`As`, `AsSelf`, `AsImplementedInterfaces`, `AsClosedTypesOf`, `Keyed`/`Named`, `SingleInstance`,
/// `InstancePer*`). One DiRegistration fact per service, like Microsoft.Extensions.DependencyInjection's, with
/// `container: autofac`; the lifetime is Autofac's (no `InstancePer*` call: a new instance per dependency, but one
/// instance for `RegisterInstance`; a decorator's is its service's, unsaid).
/// </summary>
internal sealed class AutofacFacts
{
    private static readonly string[] Assemblies = ["Autofac"];

    public static readonly string[] InvocationNames =
    [
        "RegisterType", "RegisterGeneric", "Register", "RegisterInstance", "RegisterAssemblyTypes",
        "RegisterDecorator", "RegisterGenericDecorator", "RegisterModule",
    ];

    // Autofac's AsImplementedInterfaces leaves these out.
    private static readonly HashSet<string> NotServices = ["System.IDisposable", "System.IAsyncDisposable"];

    private readonly FactSink _sink;
    private readonly DiTypes _types;

    public AutofacFacts(FactSink sink)
    {
        _sink = sink;
        _types = new DiTypes(sink);
    }

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, Assemblies);
        if (binding == Binding.Other) return;
        // Unbound (Autofac not restored): only on a receiver named like a container builder.
        if (binding == Binding.Unbound && !FactSyntax.NameContains(FactSyntax.Receiver(inv), "builder")) return;
        var method = symbol as IMethodSymbol;
        var confidence = FrameworkApi.ConfidenceOf(binding)!;
        var offset = FactSyntax.Name(inv)!.SpanStart;

        if (name == "RegisterModule")
        {
            Module(inv, method, from, offset, confidence);
            return;
        }
        var (form, implementation, decorated) = Registered(inv, name, method);
        var chain = Chain(inv);
        // A decorator lives as long as what it decorates; an instance is one object (Autofac: SingleInstance).
        var lifetime = form == "decorator" ? null : Lifetime(chain, form == "instance" ? "Singleton" : "Transient");
        // Resolved as (with no As*): the type argument of Register<T>/RegisterInstance<T> (inferred or given: the
        // delegate's return type, the instance's type), else the implementation itself.
        var self = form is "factory" or "instance" && _types.TypeArguments(inv, method) is [var given, ..] ? given : implementation;
        foreach (var (service, key) in Services(chain, implementation, self, form, decorated))
        {
            _sink.Add(FactKinds.DiRegistration, from, offset, confidence, service.Name,
                new FactDetail().Add("lifetime", lifetime).Add("implementation", implementation?.Name).Add("form", form)
                    .Add("key", key).Add("container", "autofac").Add("service_id", service.Id)
                    .Add("implementation_id", implementation?.Id));
        }
    }

    /// <summary>The form and the implementation the Register* call names; a decorator's service comes with it.</summary>
    private (string Form, DiType? Implementation, DiType? Decorated) Registered(InvocationExpressionSyntax inv, string name,
        IMethodSymbol? method)
    {
        var typeArgs = _types.TypeArguments(inv, method);
        var typeofArgs = _types.TypeofArguments(inv);
        var first = inv.ArgumentList.Arguments.FirstOrDefault()?.Expression;
        return name switch
        {
            "RegisterType" or "RegisterGeneric" when typeArgs.Count > 0 => ("generic", typeArgs[0], null),
            "RegisterType" or "RegisterGeneric" => ("typeof", typeofArgs.FirstOrDefault(), null),
            // RegisterDecorator<TDecorator, TService>() / RegisterGenericDecorator(typeof(D<>), typeof(S<>))
            "RegisterDecorator" when typeArgs.Count > 1 => ("decorator", typeArgs[0], typeArgs[1]),
            "RegisterDecorator" or "RegisterGenericDecorator" =>
                ("decorator", typeofArgs.ElementAtOrDefault(0), typeofArgs.ElementAtOrDefault(1)),
            "RegisterInstance" => ("instance", first is null ? null : _types.InstanceType(first), null),
            "RegisterAssemblyTypes" => ("scan", null, null),
            _ when first is not null && FactSyntax.IsLambda(first) => ("factory", _types.FactoryResult(first), null),
            _ => ("factory", typeArgs.FirstOrDefault(), null),
        };
    }

    /// <summary>The calls chained on the registration, innermost first: `.As&lt;I&gt;().SingleInstance()`.</summary>
    private static List<(string Name, InvocationExpressionSyntax Call)> Chain(InvocationExpressionSyntax inv)
    {
        var chain = new List<(string, InvocationExpressionSyntax)>();
        SyntaxNode node = inv;
        while (node.Parent is MemberAccessExpressionSyntax access && access.Expression == node
               && access.Parent is InvocationExpressionSyntax outer)
        {
            chain.Add((access.Name.Identifier.ValueText, outer));
            node = outer;
        }
        return chain;
    }

    private static string Lifetime(List<(string Name, InvocationExpressionSyntax Call)> chain, string unsaid)
    {
        foreach (var (name, _) in chain)
        {
            if (name == "SingleInstance") return "Singleton";
            if (name == "InstancePerDependency") return "Transient";
            if (name.StartsWith("InstancePer", StringComparison.Ordinal)) return "Scoped"; // lifetime scope, request, owned
        }
        return unsaid;
    }

    /// <summary>What the registration is resolved as: each `As*`/`Keyed`/`Named` of the chain; none, the
    /// implementation itself (a scan's types: "(scanned types)").</summary>
    private IEnumerable<(DiType Service, string? Key)> Services(List<(string Name, InvocationExpressionSyntax Call)> chain,
        DiType? implementation, DiType? self, string form, DiType? decorated)
    {
        if (form == "decorator")
        {
            if (decorated is not null) yield return (decorated, null);
            yield break;
        }
        var any = false;
        foreach (var (name, call) in chain)
        {
            var method = Bound.ForFacts(_sink.Model.GetSymbolInfo(call)) as IMethodSymbol;
            switch (name)
            {
                case "As":
                    foreach (var t in _types.TypeArguments(call, method).Concat(_types.TypeofArguments(call)))
                    {
                        any = true;
                        yield return (t, null);
                    }
                    break;
                case "AsClosedTypesOf":
                    foreach (var t in _types.TypeofArguments(call))
                    {
                        any = true;
                        yield return (t, null);
                    }
                    break;
                case "Keyed" or "Named":
                    var keyArg = call.ArgumentList.Arguments.FirstOrDefault()?.Expression;
                    var key = keyArg is null ? null : FactSyntax.ConstantString(_sink.Model, keyArg) ?? FactSyntax.Collapse(keyArg.ToString());
                    foreach (var t in _types.TypeArguments(call, method).Concat(_types.TypeofArguments(call)))
                    {
                        any = true;
                        yield return (t, key);
                    }
                    break;
                case "AsSelf" when self is not null:
                    any = true;
                    yield return (self, null);
                    break;
                case "AsImplementedInterfaces":
                    any = true;
                    foreach (var service in ImplementedInterfaces(implementation)) yield return (service, null);
                    break;
            }
        }
        if (!any) yield return (self ?? new DiType("(scanned types)", null), null);
    }

    private IEnumerable<DiType> ImplementedInterfaces(DiType? implementation)
    {
        if (implementation?.Symbol is not { TypeKind: not TypeKind.Error } type)
        {
            yield return new DiType("(implemented interfaces)", null);
            yield break;
        }
        foreach (var i in type.AllInterfaces)
        {
            if (!NotServices.Contains(i.ToDisplayString())) yield return _types.Named(i);
        }
    }

    /// <summary>`RegisterModule&lt;M&gt;()` / `RegisterModule(new M(...))`: the module's Load holds the registrations.</summary>
    private void Module(InvocationExpressionSyntax inv, IMethodSymbol? method, string? from, int offset, string confidence)
    {
        var typeArgs = _types.TypeArguments(inv, method);
        var first = inv.ArgumentList.Arguments.FirstOrDefault()?.Expression;
        var module = typeArgs.FirstOrDefault() ?? (first is null ? null : _types.InstanceType(first));
        if (module is null) return;
        var load = ModuleLoad(first, typeArgs.Count > 0 ? inv : null);
        _sink.Add(FactKinds.DiRegistration, from, offset, confidence, module.Name,
            new FactDetail().Add("form", "module").Add("via", "RegisterModule").Add("target", load)
                .Add("container", "autofac").Add("service_id", module.Id));
    }

    /// <summary>The id of the module's own Load override, when the module is the solution's.</summary>
    private string? ModuleLoad(ExpressionSyntax? instance, InvocationExpressionSyntax? generic)
    {
        ITypeSymbol? type = null;
        if (instance is not null) type = _sink.Model.GetTypeInfo(instance).Type;
        else if (generic is not null && Bound.ForFacts(_sink.Model.GetSymbolInfo(generic)) is IMethodSymbol { TypeArguments.Length: > 0 } m)
            type = m.TypeArguments[0];
        for (var t = type as INamedTypeSymbol; t is not null; t = t.BaseType)
        {
            var load = t.GetMembers("Load").OfType<IMethodSymbol>().FirstOrDefault(l => l.IsOverride && l.Locations.Any(x => x.IsInSource));
            if (load is not null) return _sink.IdOf(load);
        }
        return null;
    }
}
