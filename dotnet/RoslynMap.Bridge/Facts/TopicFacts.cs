using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Messages addressed by a topic string rather than a type. A subscriber is a method carrying an attribute named
/// `*Subscribe` or `Topic` with constant string arguments (CAP's `[CapSubscribe("orders.created")]`, found by CAP
/// through reflection; Dapr's `[Topic("pubsub", "orders")]`); a publish is a call named `Publish*` with constant string
/// arguments (`capBus.PublishAsync("orders.created", order)`, `dapr.PublishEventAsync("pubsub", "orders", order)`).
/// Each side records its constant strings, in order; query/topics.py joins a publish to the subscribers whose strings
/// it all names. No call binds them, so without these facts a CAP subscriber had no caller and read unused.
/// </summary>
internal sealed class TopicFacts(FactSink sink)
{
    public static bool IsSubscribeAttribute(string name) =>
        name.EndsWith("Subscribe", StringComparison.Ordinal) || name == "Topic";

    public static bool IsPublishName(string name) => name.StartsWith("Publish", StringComparison.Ordinal);

    /// <summary>`[CapSubscribe("orders.created", Group = "g")]` on a method: its positional constant strings.</summary>
    public void Subscriber(AttributeSyntax attr, string name, string? methodId)
    {
        if (methodId is null || attr.ArgumentList is null) return;
        // Only the arguments that address the message: Dapr's `[Topic("pubsub", "orders", "event.type == \"v2\"", 1)]`
        // also takes a match expression and a dead-letter topic no publish names. Bound, by the constructor's parameter
        // names; unbound (the package is missing), the first two.
        var constructor = sink.Model.GetSymbolInfo(attr).Symbol as IMethodSymbol;
        var addressed = constructor?.Parameters.Any(p => IsAddress(p.Name)) == true;
        var strings = new List<string>();
        for (var i = 0; FactSyntax.PositionalArg(attr, i) is { } arg; i++)
        {
            if (addressed ? i >= constructor!.Parameters.Length || !IsAddress(constructor.Parameters[i].Name)
                          : constructor is null && i >= 2) continue;
            if (FactSyntax.ConstantString(sink.Model, arg.Expression) is { Length: > 0 } value) strings.Add(value);
        }
        if (strings.Count == 0) return;
        sink.Add(FactKinds.TopicSubscriber, methodId, attr.SpanStart, Confidence.Medium, strings[^1],
            new FactDetail().Add("attribute", name).Add("strings", strings));
    }

    private static bool IsAddress(string parameter) =>
        parameter.ToLowerInvariant() is "name" or "topic" or "topicname" or "pubsubname";

    /// <summary>`bus.PublishAsync("orders.created", order)`: the call's constant string arguments (positional only: a
    /// named `callbackName:` is no topic).</summary>
    public void Publish(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (from is null || inv.ArgumentList.Arguments.Count == 0) return;
        var strings = new List<string>();
        foreach (var arg in inv.ArgumentList.Arguments)
        {
            if (arg.NameColon is not null) continue;
            // Cheap before the model: only a literal, a name or a member access may be a constant string.
            if (arg.Expression is not (LiteralExpressionSyntax or IdentifierNameSyntax or MemberAccessExpressionSyntax)) continue;
            if (FactSyntax.ConstantString(sink.Model, arg.Expression) is { Length: > 0 } value) strings.Add(value);
        }
        if (strings.Count == 0) return;
        sink.Add(FactKinds.TopicPublish, from, FactSyntax.Name(inv)!.SpanStart, Confidence.Medium, strings[0],
            new FactDetail().Add("method", name).Add("strings", strings));
    }
}
