namespace Web.Api.Services;

public sealed class PriceCalculator
{
    public decimal WithTax(decimal amount) => amount * 1.2m;
}

public interface IClock
{
    DateTimeOffset Now { get; }
}

public sealed class SystemClock : IClock
{
    public DateTimeOffset Now => DateTimeOffset.UtcNow;
}

public interface IAuditSink
{
    void Write(string line);
}

public sealed class FileAuditSink(string path) : IAuditSink
{
    public void Write(string line) => File.AppendAllText(path, line + Environment.NewLine);
}

public interface INotifier
{
    Task NotifyAsync(string message);
}

public sealed class EmailNotifier : INotifier
{
    public Task NotifyAsync(string message) => Task.CompletedTask;
}

public sealed class SmsNotifier : INotifier
{
    public Task NotifyAsync(string message) => throw new NotSupportedException("sms is not wired yet");
}
