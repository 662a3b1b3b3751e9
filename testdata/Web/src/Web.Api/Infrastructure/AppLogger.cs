namespace Web.Api.Infrastructure;

/// <summary>A logging adapter, as eShopOnWeb has one: templates pass through its `message` parameter.</summary>
public interface IAppLogger<T>
{
    void LogInformation(string message, params object[] args);

    void LogWarning(string message, params object[] args);
}

public sealed class LoggerAdapter<T>(ILogger<T> logger) : IAppLogger<T>
{
    public void LogInformation(string message, params object[] args) => logger.LogInformation(message, args);

    public void LogWarning(string message, params object[] args) => logger.LogWarning(message, args);
}

public sealed class BasketReminder(IAppLogger<BasketReminder> log)
{
    public void Remind(int basketId)
    {
        log.LogInformation("Reminding basket {BasketId}", basketId);
        log.LogWarning(message: "Basket {BasketId} abandoned", basketId);
    }
}
