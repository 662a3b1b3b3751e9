namespace Hierarchy.GenericEvents;

// Radarr's provider events: a generic event type published from a generic factory through the bus's
// Publish<TEvent>. A handler of Updated<IIndexerPlugin> is called where Updated<...> is published, for any provider
// type, never where Deleted<...> or Saved is.
public interface IEvent { }

public interface IHandle<TEvent> where TEvent : IEvent
{
    void Handle(TEvent message);
}

public interface IBus
{
    void Publish<TEvent>(TEvent message) where TEvent : class, IEvent;
}

public sealed class Bus(Func<Type, IEnumerable<object>> build) : IBus
{
    public void Publish<TEvent>(TEvent message) where TEvent : class, IEvent
    {
        foreach (var handler in build(typeof(IHandle<TEvent>)).Cast<IHandle<TEvent>>())
        {
            handler.Handle(message);
        }
    }
}

public interface IPlugin { }
public interface IIndexerPlugin : IPlugin { }
public sealed class Newznab : IIndexerPlugin { }

public sealed class Updated<TProvider> : IEvent { }
public sealed class Deleted<TProvider> : IEvent { }
public sealed class Saved : IEvent { }

public class Factory<TProvider>(IBus bus) where TProvider : IPlugin
{
    public void Update() => bus.Publish(new Updated<TProvider>());

    public void Delete() => bus.Publish(new Deleted<TProvider>());
}

public sealed class Settings(IBus bus)
{
    public void Save() => bus.Publish(new Saved());

    // Published with a type of its own, not a type parameter: still an Updated<...>.
    public void Touch() => bus.Publish(new Updated<Newznab>());
}

public sealed class IndexerCache : IHandle<Updated<IIndexerPlugin>>
{
    public void Handle(Updated<IIndexerPlugin> message) { }
}

// Generic over the event's own argument: a handler of every Updated<T> it is made for.
public sealed class Cache<TProvider> : IHandle<Updated<TProvider>>
{
    public void Handle(Updated<TProvider> message) { }
}

public sealed class Cleaner : IHandle<Deleted<IIndexerPlugin>>
{
    public void Handle(Deleted<IIndexerPlugin> message) { }
}

public sealed class Auditor : IHandle<Saved>
{
    public void Handle(Saved message) { }
}
