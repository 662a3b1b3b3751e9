using Flow.Core;
using Microsoft.Extensions.DependencyInjection;

namespace Flow.Tool;

/// <summary>CAP's test project: its own fake of the library's interface, registered for itself.</summary>
public sealed class FileAuditSink : IAuditSink
{
    public void Write(string line) => throw new NotImplementedException();
}

/// <summary>Hangfire's sample: a decorator of the library's factory.</summary>
public sealed class LoggingJobFactory(IJobFactory inner) : IJobFactory
{
    public string Create(string name)
    {
        Console.WriteLine(name);
        return inner.Create(name);
    }
}

public static class ToolServices
{
    /// <summary>The fake, and the decorator built by hand around the library's factory (Hangfire's NetCoreSample:
    /// `x => new CustomBackgroundJobFactory(new BackgroundJobFactory(...))`).</summary>
    public static IServiceCollection AddToolServices(this IServiceCollection services) => services
        .AddSingleton<IAuditSink, FileAuditSink>()
        .AddSingleton<IJobFactory>(_ => new LoggingJobFactory(new JobFactory()));
}
