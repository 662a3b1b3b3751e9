namespace Hierarchy.Events;

// An event aggregator (the *arr family's): PublishEvent<TEvent> runs the handlers built for IHandle<TEvent>, so a
// handler of OrderPlaced is called only where PublishEvent's type argument is OrderPlaced.
public interface IEvent { }

public sealed record OrderPlaced(int Id) : IEvent;
public sealed record OrderShipped(int Id) : IEvent;
public sealed record StockLow(string Sku) : IEvent;

public interface IHandle<TEvent> where TEvent : IEvent
{
    void Handle(TEvent message);
}

// Contravariant: a handler of IEvent serves every event (never narrowed).
public interface IObserve<in TEvent> where TEvent : IEvent
{
    void Observe(TEvent message);
}

public interface IEventAggregator
{
    void PublishEvent<TEvent>(TEvent message) where TEvent : class, IEvent;
}

public sealed class EventAggregator(IServiceProvider services) : IEventAggregator
{
    public void PublishEvent<TEvent>(TEvent message) where TEvent : class, IEvent
    {
        foreach (var handler in Build<IHandle<TEvent>>())
        {
            handler.Handle(message);
        }
        foreach (var observer in Build<IObserve<TEvent>>())
        {
            observer.Observe(message);
        }
    }

    private IEnumerable<T> Build<T>() => (IEnumerable<T>?)services.GetService(typeof(IEnumerable<T>)) ?? [];
}

public sealed class Mailer : IHandle<OrderPlaced>, IHandle<OrderShipped>
{
    public void Handle(OrderPlaced message) { }

    public void Handle(OrderShipped message) { }
}

public sealed class Restocker : IHandle<StockLow>
{
    public void Handle(StockLow message) { }
}

public sealed class AuditTrail : IObserve<IEvent>
{
    public void Observe(IEvent message) { }
}

public sealed class Orders(IEventAggregator events)
{
    public void Place(int id) => events.PublishEvent(new OrderPlaced(id));

    public void Ship(int id)
    {
        var shipped = new OrderShipped(id);
        events.PublishEvent(shipped);
    }

    // A generic helper publishing its own type argument: its callers decide which handlers run.
    public void Relay<TEvent>(TEvent message) where TEvent : class, IEvent => events.PublishEvent(message);

    public void Replay(int id) => Relay(new OrderPlaced(id));
}

public sealed class Warehouse(IEventAggregator events)
{
    public void Check(string sku) => events.PublishEvent(new StockLow(sku));

    // Called on a constructed handler type: runs Restocker's Handle, never Mailer's.
    public void Direct(IHandle<StockLow> handler) => handler.Handle(new StockLow("x"));
}
