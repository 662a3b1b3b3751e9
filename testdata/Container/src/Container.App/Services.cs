namespace Container.App;

public interface IClock
{
    DateTime Now();
}

public sealed class SystemClock : IClock
{
    public DateTime Now() => DateTime.UtcNow;
}

public sealed class CachingClock(IClock inner) : IClock
{
    private DateTime? _cached;

    public DateTime Now() => _cached ??= inner.Now();
}

public interface IRepository<T>
{
    T? Find(int id);
}

public sealed class MemoryRepository<T> : IRepository<T>
{
    public T? Find(int id) => default;
}

public interface IHandler<TMessage>
{
    void Handle(TMessage message);
}

public sealed class LoggingHandler<TMessage>(IHandler<TMessage> inner) : IHandler<TMessage>
{
    public void Handle(TMessage message) => inner.Handle(message);
}

public sealed record OrderPlaced(int Id);

public sealed class OrderPlacedHandler : IHandler<OrderPlaced>
{
    public void Handle(OrderPlaced message)
    {
    }
}

public interface IMailer
{
    void Send(string to);
}

public interface IAuditor
{
    void Audit(string what);
}

public sealed class SmtpMailer : IMailer, IAuditor, IDisposable
{
    public void Send(string to)
    {
    }

    public void Audit(string what)
    {
    }

    public void Dispose()
    {
    }
}

public sealed class Settings
{
    public string Name { get; init; } = "";
}

public interface IPayments
{
    void Pay(int orderId);
}

public sealed class CardPayments : IPayments
{
    public void Pay(int orderId)
    {
    }
}
