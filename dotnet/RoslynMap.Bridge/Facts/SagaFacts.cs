using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// A MassTransit state machine's behaviours of an event. The constructor wires them, `Initially(When(OrderSubmitted)
/// .Then(ctx => ...).Activity(x => x.OfType&lt;AcceptOrderActivity&gt;()).TransitionTo(Submitted))` (Sample-Twitch): a
/// message reaching the `Event&lt;T&gt;` property runs that chain's lambdas and activities, which no call edge says. One
/// `SagaEvent` fact per `When(Event)`: on the member wiring it, keyed by the event property, with the chain's last line
/// and the activities it names; query/sagas.py walks the calls of those lines from the event.
/// </summary>
internal sealed class SagaFacts(FactSink sink)
{
    public static bool IsWhen(string name) => name is "When";

    public void When(InvocationExpressionSyntax inv, string? from)
    {
        if (from is null || inv.ArgumentList.Arguments.Count == 0) return;
        // The event: a property typed `Event` or `Event<T>` (MassTransit's, or Automatonymous' before v8).
        if (sink.Model.GetSymbolInfo(inv.ArgumentList.Arguments[0].Expression).Symbol is not IPropertySymbol
            { Type.Name: "Event" } evt) return;
        if (sink.IdOf(evt) is not { } eventId) return;
        // The chain hanging on it: `When(E).Then(..).TransitionTo(..)`, each call the receiver of the next.
        ExpressionSyntax chain = inv;
        while (chain.Parent is MemberAccessExpressionSyntax access && access.Expression == chain
               && access.Parent is InvocationExpressionSyntax next)
            chain = next;
        var activities = new List<string>();
        foreach (var call in chain.DescendantNodesAndSelf().OfType<InvocationExpressionSyntax>())
        {
            // `.Activity(x => x.OfType<AcceptOrderActivity>())`: the activity MassTransit builds and executes.
            if (FactSyntax.NameText(call) != "OfType" || sink.Model.GetSymbolInfo(call).Symbol is not IMethodSymbol
                { TypeArguments: [var activity] }) continue;
            if (sink.IdOf(activity) is { } id && !activities.Contains(id)) activities.Add(id);
        }
        sink.Add(FactKinds.SagaEvent, from, FactSyntax.Name(inv)!.SpanStart, Confidence.High, eventId,
            new FactDetail().Add("event", evt.Name).Add("end_line", sink.LineOf(chain.Span.End))
                .Add("activities", activities.Count > 0 ? activities : null));
    }
}
