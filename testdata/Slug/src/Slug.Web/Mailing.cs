namespace Slug.Web;

public interface IMailQueue
{
    void Enqueue(string to);
}

public interface IMailStats
{
    int Sent { get; }
}

/// <summary>A hosted service that is also the queue other code writes to: registered once, then handed over as each
/// of its services by a factory (BTCPay's hosted services, `ISettingsRepository`, `IStoreRepository`).</summary>
public sealed class Mailer : BackgroundService, IMailQueue, IMailStats
{
    public int Sent { get; private set; }

    public void Enqueue(string to) => Sent++;

    protected override Task ExecuteAsync(CancellationToken stoppingToken) => Task.CompletedTask;
}

public static class Mailing
{
    public static IServiceCollection AddMailing(this IServiceCollection services)
    {
        services.AddSingleton<Mailer>();
        services.AddSingleton<IHostedService>(sp => sp.GetRequiredService<Mailer>());
        services.AddSingleton<IMailQueue>(sp => (IMailQueue)sp.GetRequiredService(typeof(Mailer)));
        services.AddSingleton<IMailStats>(sp =>
        {
            var mailer = sp.GetService<Mailer>();
            return mailer!;
        });
        services.AddSingleton(typeof(IDisposable), sp => sp.GetRequiredService<Mailer>()!);
        return services;
    }

    // Calls the queue through its interface: DI makes a Mailer for it.
    public static void Welcome(IMailQueue queue) => queue.Enqueue("new@example.com");
}
