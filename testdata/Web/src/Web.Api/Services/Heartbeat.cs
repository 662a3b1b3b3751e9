using NLog;

namespace Web.Api.Services;

/// <summary>LibLog's logger, as Hangfire embeds it: an ILog of the solution's own and extension methods named for the
/// level (`Info`, `InfoFormat`, `Warn`, `WarnException`), whose `message` is the template; and NLog's Logger.</summary>
public interface ILog
{
    bool Log(int level, Func<string>? messageFunc, Exception? exception = null);
}

public static class LogExtensions
{
    public static void Info(this ILog logger, string message) => logger.Log(2, () => message);

    public static void InfoFormat(this ILog logger, string message, params object[] args) =>
        logger.Log(2, () => string.Format(message, args));

    public static void Warn(this ILog logger, string message) => logger.Log(3, () => message);

    public static void WarnException(this ILog logger, string message, Exception exception) => logger.Log(3, () => message, exception);

    public static void Trace(this ILog logger, Func<string> messageFunc) => logger.Log(0, messageFunc);
}

public sealed class Heartbeat(ILog log, Catalog catalog)
{
    private static readonly Logger Nlog = LogManager.GetCurrentClassLogger();

    public void Beat(string server, Exception? error)
    {
        log.Info($"Server {server} is alive");
        log.InfoFormat("Server {0} heartbeat", server);
        log.Warn($"Server {server} was considered dead");
        if (error is not null) log.WarnException("Heartbeat failed", error);
        log.Trace(() => "Built at run time"); // no template: a delegate
        Nlog.Info("Heartbeat of {Server}", server);
        Nlog.Warn(error, "Heartbeat of {Server} late", server);
        Nlog.Log(NLog.LogLevel.Debug, "Beat {Server} logged", server);
        catalog.Info("Catalog refreshed"); // Info and Trace of no logger: no log
        catalog.Trace("Catalog traced");
    }
}

public sealed class Catalog
{
    public void Info(string message) => Console.WriteLine(message);

    public void Trace(string message) => Console.WriteLine(message);
}
