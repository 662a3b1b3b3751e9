namespace Flow.Core.Subscriptions;

// BTCPay Server's EventAggregator: Subscribe<T> stores the handler delegate under typeof(T), and Publish<T> later
// invokes the delegates stored under its own T. No call edge goes from a publish to a handler; the subscription is
// linked by its type argument instead (query/subscriptions.py).
public sealed record InvoicePaid(string Id);

public sealed record InvoiceVoided(string Id);

public sealed record StockCounted(int Count);

public interface IBus
{
    void Subscribe<T>(Action<T> handler);

    void SubscribeAsync<T>(Func<T, Task> handler);

    void Publish<T>(T evt);
}

public sealed class Bus : IBus
{
    private readonly Dictionary<Type, List<Func<object, Task>>> _subscriptions = new();

    public void Subscribe<T>(Action<T> handler) => Add(typeof(T), o =>
    {
        handler((T)o);
        return Task.CompletedTask;
    });

    public void SubscribeAsync<T>(Func<T, Task> handler) => Add(typeof(T), o => handler((T)o));

    // A predicate run on each event, not a handler: no subscription.
    public bool Matches<T>(Func<T, bool> predicate, T evt) => predicate(evt);

    public void Publish<T>(T evt)
    {
        if (_subscriptions.TryGetValue(typeof(T), out var handlers))
        {
            foreach (var handler in handlers)
            {
                handler(evt!);
            }
        }
    }

    private void Add(Type type, Func<object, Task> handler)
    {
        if (!_subscriptions.TryGetValue(type, out var handlers))
        {
            _subscriptions[type] = handlers = new();
        }

        handlers.Add(handler);
    }
}

// Subscribes method groups through the interface, one per event type.
public sealed class Mailer(IBus bus) : Microsoft.Extensions.Hosting.IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        bus.Subscribe<InvoicePaid>(OnInvoicePaid);
        bus.SubscribeAsync<InvoiceVoided>(OnInvoiceVoided);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    private void OnInvoicePaid(InvoicePaid evt)
    {
    }

    private Task OnInvoiceVoided(InvoiceVoided evt) => Task.CompletedTask;
}

// Subscribes lambdas on the class itself: a one-line lambda's calls are its handlers; a longer one's are not known.
public sealed class Ledger(Bus bus)
{
    public void Start()
    {
        bus.SubscribeAsync<InvoicePaid>(async evt => await Record(evt.Id));
        bus.Subscribe<InvoicePaid>(evt =>
        {
            Audit(evt.Id);
        });
    }

    private Task Record(string id) => Task.CompletedTask;

    private void Audit(string id)
    {
    }
}
