namespace Hierarchy.Broker;

// eShop's RabbitMQ EventBus: the solution's own bus, whose implementation hands the event to a broker (a queue here)
// and calls no handler. A publish no handler of the solution takes stays a `no_handler` stop, unlike GenericEvents.cs'
// Bus, which calls IHandle<TEvent>.Handle itself.
public abstract record IntegrationEvent;

public sealed record PriceChanged(int Id) : IntegrationEvent;

public interface IEventBus
{
    void Publish(IntegrationEvent @event);

    void Publish<TEvent>(TEvent @event, int delay) where TEvent : IntegrationEvent;
}

public interface IOutbox
{
    void Save<T>(T item);
}

public sealed class Outbox : IOutbox
{
    private readonly List<object> _items = [];

    public void Save<T>(T item) => _items.Add(item!);
}

public sealed class RabbitEventBus(IOutbox outbox) : IEventBus
{
    private readonly Queue<string> _broker = new();

    public void Publish(IntegrationEvent @event) => _broker.Enqueue(@event.GetType().Name);

    // Generic over the event, and handing it on to a generic method of the solution: still no handler called.
    public void Publish<TEvent>(TEvent @event, int delay) where TEvent : IntegrationEvent => outbox.Save(@event);
}

public sealed class Pricing(IEventBus bus)
{
    public void Change(int id) => bus.Publish(new PriceChanged(id));

    public void ChangeLater(int id) => bus.Publish(new PriceChanged(id), 5);
}
