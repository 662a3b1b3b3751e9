namespace Flow.Core;

/// <summary>An event bus of the solution's own (eShopOnContainers' IEventBus): a published event reaches the
/// handlers of its type, as a mediator notification does.</summary>
public abstract record IntegrationEvent;

public sealed record OrderShippedIntegrationEvent(int OrderId) : IntegrationEvent;

/// <summary>Handled only in Flow.Other, by its own class of the same name.</summary>
public sealed record PaymentTakenIntegrationEvent(int OrderId) : IntegrationEvent;

public interface IEventBus
{
    void Publish(IntegrationEvent @event);

    Task PublishAsync(IntegrationEvent @event);
}

public interface IIntegrationEventHandler<in TEvent> where TEvent : IntegrationEvent
{
    Task Handle(TEvent @event);
}

public sealed class OrderShippedIntegrationEventHandler : IIntegrationEventHandler<OrderShippedIntegrationEvent>
{
    public Task Handle(OrderShippedIntegrationEvent @event) => Task.CompletedTask;
}

public sealed class ShippingService(IEventBus eventBus)
{
    public void Ship(int orderId) => eventBus.Publish(new OrderShippedIntegrationEvent(orderId));

    // eShop's IEventBus.PublishAsync(IntegrationEvent): the Async name is a publish too.
    public Task ShipLaterAsync(int orderId) => eventBus.PublishAsync(new OrderShippedIntegrationEvent(orderId));

    public void Charge(int orderId)
    {
        IntegrationEvent taken = new PaymentTakenIntegrationEvent(orderId);
        eventBus.Publish(taken);
    }
}
