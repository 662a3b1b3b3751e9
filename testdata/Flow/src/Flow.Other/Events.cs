namespace Flow.Other;

/// <summary>Another service's copy of an event (microservices share events by name, each with its own class, as
/// eShopOnContainers' Payment and Ordering do): Flow.Core's PaymentTakenIntegrationEvent reaches this handler by name.</summary>
public abstract record IntegrationEvent;

public sealed record PaymentTakenIntegrationEvent(int OrderId) : IntegrationEvent;

public interface IIntegrationEventHandler<in TEvent> where TEvent : IntegrationEvent
{
    Task Handle(TEvent @event);
}

public sealed class PaymentTakenIntegrationEventHandler : IIntegrationEventHandler<PaymentTakenIntegrationEvent>
{
    public Task Handle(PaymentTakenIntegrationEvent @event) => Task.CompletedTask;
}
