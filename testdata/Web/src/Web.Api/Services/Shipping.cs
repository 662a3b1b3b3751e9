using Serilog;
using Serilog.Events;

namespace Web.Api.Services;

/// <summary>Serilog's logger (the method is the level) and `LoggerMessage.Define`: templates as sure as ILogger's
/// (sample-dotnet-core-cqrs-api logs through Serilog only).</summary>
public sealed class Shipping(Serilog.ILogger log)
{
    private static readonly Action<Microsoft.Extensions.Logging.ILogger, int, Exception?> Delayed =
        LoggerMessage.Define<int>(LogLevel.Error, new EventId(7, "Delayed"), "Shipment {ShipmentId} delayed");

    public void Ship(int id, Microsoft.Extensions.Logging.ILogger logger)
    {
        log.Information("Shipping {ShipmentId}", id);
        Log.Write(LogEventLevel.Debug, "Shipment {ShipmentId} queued", id);
        try
        {
            Send(id);
        }
        catch (InvalidOperationException ex)
        {
            log.Error(ex, "Shipment {ShipmentId} failed", id);
            Delayed(logger, id, ex);
        }
    }

    private static void Send(int id) => Console.WriteLine(id);
}
