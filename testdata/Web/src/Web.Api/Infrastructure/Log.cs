namespace Web.Api.Infrastructure;

public static partial class Log
{
    [LoggerMessage(EventId = 10, Level = LogLevel.Information, Message = "Order {OrderId} placed")]
    public static partial void OrderPlaced(ILogger logger, int orderId);

    [LoggerMessage(11, LogLevel.Warning, "Payment {PaymentId} declined")]
    public static partial void PaymentDeclined(ILogger logger, string paymentId);
}
