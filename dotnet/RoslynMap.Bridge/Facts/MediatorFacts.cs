using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Mediator requests (MediatR and look-alikes): `mediator.Send(request)`, `Publish(notification)` and
/// `CreateStream(request)` on an IMediator / ISender / IPublisher of any namespace, and events published on an
/// event bus (`eventBus.Publish(evt)`). The key is the
/// request's type id (as bound, so a request held in a variable counts too): the query layer follows
/// it to the IRequestHandler / INotificationHandler whose Handle takes that type.
/// </summary>
internal sealed class MediatorFacts
{
    // The Async names too: eShop's IEventBus.PublishAsync, Wolverine's and Brighter's SendAsync/PublishAsync.
    // Invoke/InvokeAsync: Foundatio.Mediator's `mediator.InvokeAsync(new GetTokensByOrganization(...))` and Wolverine's
    // `bus.InvokeAsync(command)` (Exceptionless's minimal API), run by a convention handler (`TokenHandler.Handle`).
    public static readonly string[] InvocationNames = ["Send", "Publish", "CreateStream", "SendAsync", "PublishAsync", "Invoke", "InvokeAsync"];
    // Event buses too (eShopOnContainers' IEventBus, MassTransit's IBus/IPublishEndpoint, NServiceBus's IMessageSession):
    // the query layer follows an event to its IIntegrationEventHandler/IConsumer/IHandleMessages.
    private static readonly HashSet<string> BusTypes = new(StringComparer.Ordinal)
    {
        "IEventBus", "IBus", "IPublishEndpoint", "IMessageSession", "IMessageHandlerContext",
    };
    private static readonly HashSet<string> MediatorTypes = new(BusTypes, StringComparer.Ordinal)
    {
        "IMediator", "ISender", "IPublisher", "Mediator",
    };
    // Wolverine's command bus invokes a handler; Foundatio's IMessageBus (no Invoke) only publishes to subscribers.
    private static readonly HashSet<string> InvokingBusTypes = new(StringComparer.Ordinal) { "IMessageBus", "MessageBus" };

    private readonly FactSink _sink;

    public MediatorFacts(FactSink sink)
    {
        _sink = sink;
    }

    private static bool NamedLikeInvoker(ExpressionSyntax? receiver) =>
        receiver is not null && (FactSyntax.NameContains(receiver, "mediator")
                                 || (FactSyntax.NameContains(receiver, "bus") && !FactSyntax.NameContains(receiver, "business")));

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (inv.ArgumentList.Arguments.Count == 0) return;
        var invoke = name is "Invoke" or "InvokeAsync";
        // Most Invoke calls are a delegate's (`PropertyChanged?.Invoke(this, e)`, `_next.Invoke(ctx)`): asked of the
        // model only on a receiver named like a mediator or a bus (`mediator.InvokeAsync(..)`, Wolverine's `bus`).
        if (invoke && !NamedLikeInvoker(FactSyntax.Receiver(inv))) return;
        string confidence;
        bool bus;  // an event bus, not a mediator: no MediatR pipeline behavior runs around its handlers
        if (Bound.ForFacts(_sink.Model.GetSymbolInfo(inv)) is IMethodSymbol method)
        {
            if (!IsMediator(method.ContainingType) && !(invoke && IsInvokingBus(method.ContainingType))) return;
            confidence = Confidence.High;
            bus = IsBus(method.ContainingType);
        }
        else
        {
            // Unbound (the package is missing): only on a receiver named like a mediator or an event bus.
            var receiver = FactSyntax.Receiver(inv);
            // `sender` only for Send/Publish: an unbound `_emailSender.SendAsync(message)` is no mediator.
            var sender = !name.EndsWith("Async", StringComparison.Ordinal) && FactSyntax.NameContains(receiver, "sender");
            // An Invoke is a mediator's on any receiver named like a bus too (Wolverine's `bus.InvokeAsync(command)`).
            if (!FactSyntax.NameContains(receiver, "mediator") && !sender
                && !FactSyntax.NameContains(receiver, invoke ? "bus" : "eventbus")) return;
            bus = FactSyntax.NameContains(receiver, "eventbus");
            confidence = Confidence.Medium;
        }
        var request = FactSyntax.Unwrap(inv.ArgumentList.Arguments[0].Expression);
        var type = _sink.Model.GetTypeInfo(request).Type;
        string key, display;
        string? typeParameter = null;
        IReadOnlyList<string>? typeArguments = null;
        if (type is ITypeParameterSymbol parameter)
        {
            // A generic wrapper's handler sends the command it wraps (eShop's IdentifiedCommandHandler<T, R> sends its
            // `T`): keyed by the constraint (IRequest<R>); the query layer takes T from the type arguments of the
            // request that reached this handler.
            key = parameter.ConstraintTypes.Select(c => _sink.IdOf(c)).FirstOrDefault(c => c is not null) ?? "T:System.Object";
            display = parameter.Name;
            typeParameter = parameter.Name;
        }
        else if (type is { TypeKind: not TypeKind.Error } && _sink.IdOf(type) is { } id && type.SpecialType != SpecialType.System_Object)
        {
            key = id;
            display = FactSyntax.TypeName(type);
            if (type is INamedTypeSymbol { IsGenericType: true } generic)
                typeArguments = generic.TypeArguments.Select(a => _sink.IdOf(a)).OfType<string>().ToList();
        }
        else if (request is ObjectCreationExpressionSyntax creation)
        {
            key = display = FactSyntax.Collapse(creation.Type.ToString());
            confidence = Confidence.Medium;
        }
        else if (type is { TypeKind: TypeKind.Error, Name.Length: > 0 })
        {
            // Typed as a type of a package that did not restore (Contoso's fixture `SendAsync<T>(IRequest<T> r) =>
            // mediator.Send(r)` without MediatR.Contracts): keyed `?IRequest`, the name the query layer matches
            // against the unresolved bases of the requests (trace._ancestors), so the forwarder is still one.
            key = "?" + type.Name;
            display = FactSyntax.TypeName(type);
            confidence = Confidence.Medium;
        }
        else return;
        var detail = new FactDetail().Add("call", name).Add("request", display).Add("type_parameter", typeParameter)
            .Add("type_args", typeArguments);
        if (bus) detail.Add("bus", true);
        _sink.Add(FactKinds.MediatorRequest, from, FactSyntax.Name(inv)!.SpanStart, confidence, key, detail);
    }

    private static bool IsBus(INamedTypeSymbol? type) =>
        type is not null && (BusTypes.Contains(type.Name) || type.AllInterfaces.Any(i => BusTypes.Contains(i.Name)));

    private static bool IsInvokingBus(INamedTypeSymbol? type) =>
        type is not null && (InvokingBusTypes.Contains(type.Name) || type.AllInterfaces.Any(i => InvokingBusTypes.Contains(i.Name)));

    private static bool IsMediator(INamedTypeSymbol? type) =>
        type is not null && (MediatorTypes.Contains(type.Name) || type.AllInterfaces.Any(i => MediatorTypes.Contains(i.Name)));
}
