using Microsoft.Extensions.DependencyInjection;

namespace Flow.Core;

/// <summary>CAP's ICapPublisher: a library's interface, its implementation and registration, and a call of its own.
/// Flow.Tool, an app Flow.Web never loads, has its own implementation (the test project's private fake in CAP);
/// Flow.Plugin, a library nothing references, another (a plugin a host loads by reflection).</summary>
public interface IAuditSink
{
    void Write(string line);
}

public sealed class ConsoleAuditSink : IAuditSink
{
    public void Write(string line) => Console.WriteLine(line);
}

/// <summary>Built by the library itself (Hangfire's `new BackgroundJobFactory(...)` when none is handed to it): it may
/// run where DI registers another sink.</summary>
public sealed class NullAuditSink : IAuditSink
{
    public void Write(string line)
    {
    }
}

public static class AuditSetup
{
    public static IServiceCollection AddAudit(this IServiceCollection services) =>
        services.AddSingleton<IAuditSink, ConsoleAuditSink>();

    /// <summary>The library's own call: Flow.Tool's process runs it with Flow.Tool's sink, Flow.Web's never.</summary>
    public static void Record(IAuditSink sink, string what) => sink.Write(what);

    public static void Quiet(string what) => Record(new NullAuditSink(), what);
}

/// <summary>Hangfire's IBackgroundJobFactory: the library builds its own factory when none is handed to it, and an
/// app (Flow.Tool) registers a decorator of it built by hand in a DI factory.</summary>
public interface IJobFactory
{
    string Create(string name);
}

public sealed class JobFactory : IJobFactory
{
    public string Create(string name) => Normalize(name);

    private static string Normalize(string name) => name.Trim();
}

public sealed class JobClient
{
    private readonly IJobFactory _factory;

    public JobClient() : this(new JobFactory())
    {
    }

    public JobClient(IJobFactory factory) => _factory = factory;

    public string Enqueue(string name) => _factory.Create(name);
}
