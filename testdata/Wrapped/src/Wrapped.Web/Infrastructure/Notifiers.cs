namespace Wrapped.Web.Infrastructure;

public interface INotifier
{
    void Notify(string text);
}

public sealed class EmailNotifier : INotifier
{
    public void Notify(string text)
    {
    }
}

public interface IClock;

public sealed class SystemClock : IClock;

public static class NotifierSetup
{
    /// <summary>Scrutor's scan: the classes are found at run time, each AddClasses selection registers them.</summary>
    public static IServiceCollection AddNotifiers(this IServiceCollection services) =>
        services.Scan(scan => scan
            .FromAssemblyOf<INotifier>()
            .AddClasses(classes => classes.AssignableTo<INotifier>())
                .AsImplementedInterfaces()
                .WithScopedLifetime()
            .AddClasses(classes => classes.AssignableTo(typeof(IClock)))
                .As<IClock>()
                .WithSingletonLifetime()
            .AddClasses(classes => classes.InNamespaces("Wrapped.Web.Jobs"))
                .AsSelf());
}
