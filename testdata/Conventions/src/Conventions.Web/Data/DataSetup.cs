using Microsoft.EntityFrameworkCore;

namespace Conventions.Web.Data;

public static class DataSetup
{
    /// <summary>jellyfin's AddJellyfinDbContext: an extension method whose collection is named `serviceCollection`,
    /// and a context made by a pooled factory.</summary>
    public static IServiceCollection AddShopData(this IServiceCollection serviceCollection)
    {
        serviceCollection.AddPooledDbContextFactory<ShopContext>(options => options.EnableDetailedErrors());
        // SimplCommerce's `AddSingleton(typeof(IModuleInitializer), moduleInitializer)`: an instance, not a typeof.
        serviceCollection.AddSingleton(typeof(IProductHandler), new ProductAddedHandler());
        serviceCollection.AddDbContext<ClubContext>();
        // Practical.CleanArchitecture's scan: a System.Type found at run time, the (Type, Type) overload, no instance.
        foreach (var handlerType in new[] { typeof(ProductAddedHandler) })
            serviceCollection.AddSingleton(typeof(IProductHandler), handlerType);
        // SimplCommerce's modules: an instance made by reflection, typed only as its interface: its class is unknown.
        var made = (IProductHandler)Activator.CreateInstance(typeof(ProductAddedHandler))!;
        serviceCollection.AddSingleton(typeof(IProductHandler), made);
        return serviceCollection;
    }
}

/// <summary>EF Core's provider shortcut's shape (the Sqlite package is not referenced here): TodoApi registers its
/// context with `builder.Services.AddSqlite&lt;TodoDbContext&gt;(connectionString)`, an AddDbContext.</summary>
public static class SqliteShortcut
{
    public static IServiceCollection AddSqlite<TContext>(this IServiceCollection services, string? connectionString)
        where TContext : DbContext => services;
}

public interface IProductHandler;

public sealed class ProductAddedHandler : IProductHandler;

public static class Subscriptions
{
    /// <summary>eShop's AddSubscription: a generic keyed registration whose key is a typeof (the event type).</summary>
    public static IServiceCollection AddSubscription<TEvent, THandler>(this IServiceCollection services)
        where THandler : class, IProductHandler =>
        services.AddKeyedTransient<IProductHandler, THandler>(typeof(TEvent));
}
