using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Resilience policies: Polly v7 `Policy.Handle&lt;X&gt;()...Retry/WaitAndRetry/CircuitBreaker(...)`,
/// Polly v8 `new ResiliencePipelineBuilder()...` (retries and handled exceptions read from its
/// AddRetry options), and the HttpClient resilience handlers.
/// </summary>
internal sealed class RetryFacts
{
    private static readonly Dictionary<string, string> PollyV7 = new(StringComparer.Ordinal)
    {
        ["Retry"] = "Retry", ["RetryAsync"] = "Retry", ["RetryForever"] = "Retry", ["RetryForeverAsync"] = "Retry",
        ["WaitAndRetry"] = "WaitAndRetry", ["WaitAndRetryAsync"] = "WaitAndRetry",
        ["WaitAndRetryForever"] = "WaitAndRetry", ["WaitAndRetryForeverAsync"] = "WaitAndRetry",
        ["CircuitBreaker"] = "CircuitBreaker", ["CircuitBreakerAsync"] = "CircuitBreaker",
        ["AdvancedCircuitBreaker"] = "CircuitBreaker", ["AdvancedCircuitBreakerAsync"] = "CircuitBreaker",
    };

    private readonly FactSink _sink;

    public RetryFacts(FactSink sink)
    {
        _sink = sink;
    }

    // MassTransit's retry and redelivery filters (Sample-Twitch's consumer definitions:
    // `endpointConfigurator.UseMessageRetry(r => { r.Ignore<InvalidOperationException>(); r.Interval(3, 1000); })`).
    private static readonly Dictionary<string, string> MassTransitPolicies = new(StringComparer.Ordinal)
    {
        ["UseMessageRetry"] = "MessageRetry", ["UseRetry"] = "MessageRetry",
        ["UseDelayedRedelivery"] = "Redelivery", ["UseScheduledRedelivery"] = "Redelivery",
    };
    private static readonly string[] MassTransitAssemblies = ["MassTransit", "GreenPipes"];
    // The retry policies of MassTransit's configurator, each with its count of retries as the first argument.
    private static readonly HashSet<string> CountedIntervals = new(StringComparer.Ordinal)
    {
        "Interval", "Immediate", "Exponential", "Incremental",
    };

    public static IEnumerable<string> InvocationNames =>
        PollyV7.Keys.Append("AddStandardResilienceHandler").Append("AddResilienceHandler").Concat(MassTransitPolicies.Keys);

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (MassTransitPolicies.TryGetValue(name, out var policy))
        {
            MassTransitRetry(inv, policy, from);
            return;
        }
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Resilience);
        if (binding == Binding.Other) return;
        var anchor = FactSyntax.Name(inv)!.SpanStart;
        switch (name)
        {
            case "AddStandardResilienceHandler":
                _sink.Add(FactKinds.RetryPolicy, from, anchor, FrameworkApi.ConfidenceOf(binding)!, "StandardResilienceHandler", new FactDetail());
                return;
            case "AddResilienceHandler":
                var handlerName = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "pipelineName")?.Expression);
                _sink.Add(FactKinds.RetryPolicy, from, anchor, FrameworkApi.ConfidenceOf(binding)!, "ResilienceHandler",
                    new FactDetail().Add("name", handlerName));
                return;
        }

        var handles = new List<string>();
        var policyChain = false;
        foreach (var call in FactSyntax.ChainBelow(FactSyntax.Receiver(inv)))
        {
            var callName = FactSyntax.NameText(call);
            if (callName is "Handle" or "Or" or "HandleInner" or "OrInner" or "HandleResult" or "OrResult") policyChain = true;
            if (callName is "Handle" or "Or" or "HandleInner" or "OrInner" && FactSyntax.TypeArgs(call) is { Count: 1 } t)
                handles.Add(FactSyntax.TypeName(_sink.Model, t[0]));
            // Polly.Extensions.Http: `HttpPolicyExtensions.HandleTransientHttpError()` (HttpRequestException, 5xx, 408).
            if (callName is "HandleTransientHttpError" or "OrTransientHttpError")
            {
                policyChain = true;
                handles.Add("TransientHttpError");
            }
        }
        // Unbound, a Retry(...) is Polly's only on a policy builder chain (Policy.Handle<X>()...).
        if (binding == Binding.Unbound && !policyChain) return;
        handles.Reverse();

        var key = PollyV7[name];
        int? retries = null;
        if (key != "CircuitBreaker" && !name.Contains("Forever", StringComparison.Ordinal))
        {
            var first = FactSyntax.Arg(inv.ArgumentList, 0)?.Expression;
            retries = first is null && key == "Retry" ? 1 : RetryCount(first);
        }
        _sink.Add(FactKinds.RetryPolicy, from, anchor, FrameworkApi.ConfidenceOf(binding)!, key,
            new FactDetail().Add("retries", retries).Add("handles", handles));
    }

    /// <summary>`UseMessageRetry(r => r.Interval(3, 1000))`: the retries its configuring lambda asks for (`Intervals(a, b,
    /// c)`: three; `None()`: none), the exceptions it `Handle`s and those it `Ignore`s. Unbound (MassTransit missing),
    /// only with such a lambda.</summary>
    private void MassTransitRetry(InvocationExpressionSyntax inv, string policy, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, MassTransitAssemblies);
        if (binding == Binding.Other) return;
        if (FactSyntax.Arg(inv.ArgumentList, 0)?.Expression is not LambdaExpressionSyntax configure) return;
        int? retries = null;
        var counted = false;
        var handles = new List<string>();
        var ignores = new List<string>();
        foreach (var call in configure.DescendantNodes().OfType<InvocationExpressionSyntax>())
        {
            var callName = FactSyntax.NameText(call);
            if (callName is not null && CountedIntervals.Contains(callName))
            {
                retries = FactSyntax.ConstantInt(_sink.Model, FactSyntax.Arg(call.ArgumentList, 0)?.Expression);
                counted = true;
            }
            else if (callName == "Intervals")
            {
                var arguments = call.ArgumentList.Arguments;
                // `Intervals(500, 5000, 10000)`: one retry per interval; an array handed whole is counted when inline.
                retries = arguments.Count == 1 ? IntervalsOf(arguments[0].Expression) : arguments.Count;
                counted = true;
            }
            else if (callName == "None")
            {
                retries = 0;
                counted = true;
            }
            else if (callName is "Handle" or "Ignore" && FactSyntax.TypeArgs(call) is { Count: > 0 } types)
            {
                (callName == "Handle" ? handles : ignores).AddRange(types.Select(t => FactSyntax.TypeName(_sink.Model, t)));
            }
        }
        if (binding == Binding.Unbound && !counted) return;
        _sink.Add(FactKinds.RetryPolicy, from, FactSyntax.Name(inv)!.SpanStart, FrameworkApi.ConfidenceOf(binding)!, policy,
            new FactDetail().Add("retries", retries).Add("handles", handles).Add("ignores", ignores));
    }

    /// <summary>`new ResiliencePipelineBuilder()` and the AddRetry calls chained on it.</summary>
    public void PipelineBuilder(ObjectCreationExpressionSyntax creation, string? from)
    {
        var type = _sink.Model.GetTypeInfo(creation).Type;
        string confidence;
        if (type is { TypeKind: not TypeKind.Error } && FrameworkApi.IsFrom(type, FrameworkApi.Resilience)) confidence = Confidence.High;
        else if (type is null or { TypeKind: TypeKind.Error }) confidence = Confidence.Medium;
        else return;

        int? retries = null;
        var handles = new List<string>();
        ExpressionSyntax e = creation;
        while (e.Parent is MemberAccessExpressionSyntax ma && ma.Expression == e && ma.Parent is InvocationExpressionSyntax call)
        {
            if (FactSyntax.NameText(call) == "AddRetry" && FactSyntax.Arg(call.ArgumentList, 0)?.Expression is ObjectCreationExpressionSyntax
                    { Initializer: { } options })
            {
                foreach (var assign in options.Expressions.OfType<AssignmentExpressionSyntax>())
                {
                    var property = (assign.Left as IdentifierNameSyntax)?.Identifier.ValueText;
                    if (property == "MaxRetryAttempts") retries = FactSyntax.ConstantInt(_sink.Model, assign.Right);
                    else if (property == "ShouldHandle") handles.AddRange(PredicateHandles(assign.Right));
                }
            }
            e = call;
        }
        _sink.Add(FactKinds.RetryPolicy, from, creation.Type.SpanStart, confidence, "ResiliencePipeline",
            new FactDetail().Add("retries", retries).Add("handles", handles));
    }

    /// <summary>`new PredicateBuilder().Handle&lt;X&gt;().Handle&lt;Y&gt;()`: X, Y.</summary>
    private IEnumerable<string> PredicateHandles(ExpressionSyntax predicate)
    {
        var found = new List<string>();
        foreach (var call in FactSyntax.ChainBelow(predicate))
        {
            if (FactSyntax.NameText(call) is "Handle" or "HandleInner" && FactSyntax.TypeArgs(call) is { Count: 1 } t)
                found.Add(FactSyntax.TypeName(_sink.Model, t[0]));
        }
        found.Reverse();
        return found;
    }

    /// <summary>A constant count, or the length of an inline array of sleep durations.</summary>
    /// <summary>The retries of `Intervals(x)` with one argument: an inline array's elements, one for a single interval
    /// (`Intervals(500)`, `Intervals(TimeSpan.FromSeconds(5))`: a params array of one, not 500 retries), unknown for an
    /// array held elsewhere (`Intervals(delays)`).</summary>
    private int? IntervalsOf(ExpressionSyntax argument)
    {
        var inline = FactSyntax.Unwrap(argument) is ArrayCreationExpressionSyntax or ImplicitArrayCreationExpressionSyntax or CollectionExpressionSyntax;
        if (inline) return RetryCount(argument);
        var type = _sink.Model.GetTypeInfo(argument).Type;
        if (type is IArrayTypeSymbol || type is INamedTypeSymbol { TypeKind: not TypeKind.Error } named
            && named.AllInterfaces.Any(i => i.OriginalDefinition.SpecialType == SpecialType.System_Collections_Generic_IEnumerable_T)) return null;
        // A number, a TimeSpan, or (unbound) a name of a local: one interval only when it is plainly one.
        return type is { SpecialType: SpecialType.System_Int32 } or { Name: "TimeSpan" }
            || FactSyntax.ConstantInt(_sink.Model, argument) is not null
            || FactSyntax.Unwrap(argument) is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "TimeSpan" } } }
            ? 1 : null;
    }

    private int? RetryCount(ExpressionSyntax? first)
    {
        if (first is null) return null;
        if (FactSyntax.ConstantInt(_sink.Model, first) is { } n) return n;
        return FactSyntax.Unwrap(first) switch
        {
            ArrayCreationExpressionSyntax { Initializer: { } i } => i.Expressions.Count,
            ImplicitArrayCreationExpressionSyntax a => a.Initializer.Expressions.Count,
            CollectionExpressionSyntax c => c.Elements.Count,
            _ => null,
        };
    }
}
