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
    // GetResponse: MassTransit's request client (`IRequestClient<SubmitOrder>.GetResponse<Accepted>(new { ... })`) sends
    // its own type argument to the consumer of that message.
    public static readonly string[] InvocationNames = ["Send", "Publish", "CreateStream", "SendAsync", "PublishAsync", "Invoke", "InvokeAsync", "GetResponse"];
    // Event buses too (eShopOnContainers' IEventBus, MassTransit's IBus/IPublishEndpoint, NServiceBus's IMessageSession):
    // the query layer follows an event to its IIntegrationEventHandler/IConsumer/IHandleMessages. MassTransit's
    // ISendEndpoint (`await (await provider.GetSendEndpoint(uri)).Send<FulfillOrder>(...)`) sends to a queue whose
    // consumer takes the message.
    private static readonly HashSet<string> BusTypes = new(StringComparer.Ordinal)
    {
        "IEventBus", "IBus", "IPublishEndpoint", "ISendEndpoint", "IMessageSession", "IMessageHandlerContext",
    };
    private const string RequestClient = "IRequestClient";
    private static readonly HashSet<string> MediatorTypes = new(BusTypes, StringComparer.Ordinal)
    {
        "IMediator", "ISender", "IPublisher", "Mediator",
    };
    // Wolverine's command bus invokes a handler (from version 6 IMessageBus inherits InvokeAsync from ICommandBus);
    // Foundatio's IMessageBus (no Invoke) only publishes to subscribers.
    private static readonly HashSet<string> InvokingBusTypes = new(StringComparer.Ordinal) { "IMessageBus", "MessageBus", "ICommandBus" };

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
        if (name == "GetResponse")
        {
            RequestClientCall(inv, from);
            return;
        }
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
            // MassTransit's message initializer, `Publish<OrderShipped>(new { Id = id })` (an anonymous object and the
            // message's type written), on any receiver: no other API sends an anonymous object as a named type.
            var initializer = !invoke && FactSyntax.Unwrap(inv.ArgumentList.Arguments[0].Expression) is AnonymousObjectCreationExpressionSyntax
                              && ExplicitMessageType(inv) is not null;
            if (!FactSyntax.NameContains(receiver, "mediator") && !sender && !initializer
                && !FactSyntax.NameContains(receiver, invoke ? "bus" : "eventbus")) return;
            bus = initializer || FactSyntax.NameContains(receiver, "eventbus");
            confidence = Confidence.Medium;
        }
        var request = FactSyntax.Unwrap(inv.ArgumentList.Arguments[0].Expression);
        var type = _sink.Model.GetTypeInfo(request).Type;
        // MassTransit's message initializers: `Publish<OrderSubmitted>(new { OrderId = id })` sends an OrderSubmitted
        // its bus builds from the anonymous object's values; the message is the type argument (the anonymous type has no
        // id: these were keyed `T:`, a type nothing handles).
        if (type is null or { IsAnonymousType: true } or { SpecialType: SpecialType.System_Object }
            && ExplicitMessageType(inv) is { } explicitType)
        {
            type = explicitType;
        }
        if (type is { IsAnonymousType: true }) return;
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

    /// <summary>The one type argument written on the call (`Publish<OrderSubmitted>(...)`), bound even when the
    /// method is not (its package missing); null when none is written or it does not bind.</summary>
    private ITypeSymbol? ExplicitMessageType(InvocationExpressionSyntax inv) =>
        FactSyntax.Name(inv) is GenericNameSyntax { TypeArgumentList.Arguments: [var argument] }
        && _sink.Model.GetTypeInfo(argument).Type is { TypeKind: not TypeKind.Error and not TypeKind.TypeParameter } type
            ? type
            : null;

    /// <summary>`client.GetResponse<OrderAccepted, OrderRejected>(new { ... })` on MassTransit's IRequestClient&lt;T&gt;: the
    /// request is the client's T, whatever the argument (an anonymous object its initializer fills).</summary>
    private void RequestClientCall(InvocationExpressionSyntax inv, string? from)
    {
        var bound = Bound.ForFacts(_sink.Model.GetSymbolInfo(inv)) as IMethodSymbol;
        var client = bound?.ContainingType ?? (FactSyntax.Receiver(inv) is { } receiver
            ? _sink.Model.GetTypeInfo(receiver).Type as INamedTypeSymbol
            : null);
        if (client is not { Name: RequestClient, TypeArguments: [var message] }
            || message.TypeKind is TypeKind.Error or TypeKind.TypeParameter || _sink.IdOf(message) is not { } key) return;
        var detail = new FactDetail().Add("call", "GetResponse").Add("request", FactSyntax.TypeName(message)).Add("bus", true);
        _sink.Add(FactKinds.MediatorRequest, from, FactSyntax.Name(inv)!.SpanStart,
            bound is null ? Confidence.Medium : Confidence.High, key, detail);
    }

    private static bool IsBus(INamedTypeSymbol? type) =>
        type is not null && (BusTypes.Contains(type.Name) || type.AllInterfaces.Any(i => BusTypes.Contains(i.Name)));

    private static bool IsInvokingBus(INamedTypeSymbol? type) =>
        type is not null && (InvokingBusTypes.Contains(type.Name) || type.AllInterfaces.Any(i => InvokingBusTypes.Contains(i.Name)));

    private static bool IsMediator(INamedTypeSymbol? type) =>
        type is not null && (MediatorTypes.Contains(type.Name) || type.AllInterfaces.Any(i => MediatorTypes.Contains(i.Name)));
}
