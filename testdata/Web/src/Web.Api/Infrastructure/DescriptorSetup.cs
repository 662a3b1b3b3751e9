using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Web.Api.Data;
using Web.Api.Services;

namespace Web.Api.Infrastructure;

/// <summary>Registrations made from ServiceDescriptors (fullstackhero's authorization handler, ASP.NET Core's own
/// libraries): each is the registration AddScoped&lt;I, T&gt;() would be. None was listed.</summary>
public static class DescriptorSetup
{
    public static IServiceCollection AddDescribed(this IServiceCollection services)
    {
        services.TryAddEnumerable(ServiceDescriptor.Scoped<INotifier, EmailNotifier>());
        services.Add(new ServiceDescriptor(typeof(IClock), typeof(SystemClock), ServiceLifetime.Transient));
        services.Replace(ServiceDescriptor.Singleton<IOrderStore, SqlOrderStore>());
        services.TryAdd(ServiceDescriptor.Describe(typeof(IAuditSink), typeof(FileAuditSink), ServiceLifetime.Scoped));
        return services.AddShopContext<ShopDbContext>();
    }

    /// <summary>fullstackhero's `AddHeroDbContext&lt;TContext&gt;()`: its callers register the context they name.</summary>
    public static IServiceCollection AddShopContext<TContext>(this IServiceCollection services) where TContext : DbContext =>
        services.AddDbContext<TContext>();
}

/// <summary>Hangfire's AddHangfire: registrations through the solution's own generic helper, which is no `Add*`
/// extension; each call registers its type argument (written or inferred), the helper's body registers `T`.</summary>
public static class HelperSetup
{
    public static IServiceCollection AddThroughHelper(this IServiceCollection services)
    {
        services.TryAddSingletonChecked<IClock>(_ => new SystemClock());
        services.TryAddSingletonChecked(_ => new PriceCalculator());
        return services;
    }

    private static void TryAddSingletonChecked<T>(this IServiceCollection services, Func<IServiceProvider, T> factory)
        where T : class => services.TryAddSingleton<T>(sp => factory(sp));
}
