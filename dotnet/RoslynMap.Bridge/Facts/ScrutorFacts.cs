using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Scrutor's assembly scans: `services.Scan(s => s.FromAssemblyOf&lt;T&gt;().AddClasses(c => c.AssignableTo&lt;I&gt;())
/// .AsImplementedInterfaces().WithScopedLifetime())`. The classes are found at run time, so each `AddClasses` selection
/// is one DiRegistration fact with `form: scan` and `via: Scan`: what it is resolved as (`As&lt;I&gt;`, else the type
/// the classes are assignable to, else "(scanned types)"), the lifetime of its `With*Lifetime`, and the filter in
/// `assignable_to`; no implementation (the scan's classes are the assignable ones). Without it a service registered
/// only by a scan had no registration at all.
/// </summary>
internal sealed class ScrutorFacts
{
    private static readonly string[] Assemblies = ["Scrutor"];

    private readonly FactSink _sink;
    private readonly DiTypes _types;

    public ScrutorFacts(FactSink sink)
    {
        _sink = sink;
        _types = new DiTypes(sink);
    }

    public void Invocation(InvocationExpressionSyntax inv, string? from)
    {
        if (inv.ArgumentList.Arguments is not [{ Expression: AnonymousFunctionExpressionSyntax { Body: ExpressionSyntax body } }]) return;
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, Assemblies);
        if (binding == Binding.Other) return;
        // Unbound (Scrutor not restored): only on the service collection.
        if (binding == Binding.Unbound && !FactSyntax.NameContains(FactSyntax.Receiver(inv), "services")) return;
        var confidence = FrameworkApi.ConfidenceOf(binding)!;
        // The lambda's fluent chain, innermost call first: FromAssemblyOf<T>(), then AddClasses(..) selections, each
        // followed by its As*/With*Lifetime calls.
        var chain = FactSyntax.ChainBelow(body).Reverse().ToList();
        Selection? open = null;
        foreach (var call in chain)
        {
            var name = FactSyntax.NameText(call);
            if (name == "AddClasses")
            {
                if (open is not null) Emit(open, from, confidence);
                // At the Scan call, each selection (the "missing" warning for an unbound Scan looks at its line).
                open = new Selection(FactSyntax.Name(inv)!.SpanStart, AssignableTo(call));
            }
            else if (open is null) continue;
            else if (name is "As" && Bound.ForFacts(_sink.Model.GetSymbolInfo(call)) is var method)
                open.Services.AddRange(_types.TypeArguments(call, method as IMethodSymbol).Concat(_types.TypeofArguments(call)));
            else if (name is "AsSelf" or "AsImplementedInterfaces" or "AsMatchingInterface" or "AsSelfWithInterfaces")
                open.As = name;
            else if (name is "WithScopedLifetime" or "WithTransientLifetime" or "WithSingletonLifetime")
                open.Lifetime = name["With".Length..^"Lifetime".Length];
        }
        if (open is not null) Emit(open, from, confidence);
    }

    private sealed class Selection(int offset, DiType? assignableTo)
    {
        public readonly int Offset = offset;
        public readonly DiType? AssignableTo = assignableTo;
        public readonly List<DiType> Services = new();
        public string? As;
        public string Lifetime = "Transient"; // Scrutor's default
    }

    private void Emit(Selection selection, string? from, string confidence)
    {
        // As<I>(): I; AsImplementedInterfaces/AsMatchingInterface over classes assignable to an interface: that one
        // among them; otherwise the classes themselves.
        var services = selection.Services.Count > 0 ? selection.Services
            : selection.As is not (null or "AsSelf") && selection.AssignableTo?.Symbol is { TypeKind: TypeKind.Interface }
                ? [selection.AssignableTo]
                : [new DiType("(scanned types)", null)];
        foreach (var service in services)
        {
            _sink.Add(FactKinds.DiRegistration, from, selection.Offset, confidence, service.Name,
                new FactDetail().Add("lifetime", selection.Lifetime).Add("form", "scan").Add("via", "Scan")
                    .Add("service_id", service.Id).Add("as", selection.As)
                    .Add("assignable_to", selection.AssignableTo?.Name).Add("assignable_to_id", selection.AssignableTo?.Id));
        }
    }

    /// <summary>`AddClasses(c => c.AssignableTo&lt;I&gt;())` or `AssignableTo(typeof(I))`: I; null for any other filter.</summary>
    private DiType? AssignableTo(InvocationExpressionSyntax addClasses)
    {
        foreach (var arg in addClasses.ArgumentList.Arguments)
        {
            if (arg.Expression is not AnonymousFunctionExpressionSyntax filter) continue;
            foreach (var call in filter.DescendantNodes().OfType<InvocationExpressionSyntax>())
            {
                if (FactSyntax.NameText(call) != "AssignableTo") continue;
                var method = Bound.ForFacts(_sink.Model.GetSymbolInfo(call)) as IMethodSymbol;
                if (_types.TypeArguments(call, method).Concat(_types.TypeofArguments(call)).FirstOrDefault() is { } type) return type;
            }
        }
        return null;
    }
}
