using Microsoft.EntityFrameworkCore;

namespace Conventions.Web.Data;

public static class DataSetup
{
    /// <summary>jellyfin's AddJellyfinDbContext: an extension method whose collection is named `serviceCollection`,
    /// and a context made by a pooled factory.</summary>
    public static IServiceCollection AddShopData(this IServiceCollection serviceCollection)
    {
        serviceCollection.AddPooledDbContextFactory<ShopContext>(options => options.EnableDetailedErrors());
        return serviceCollection;
    }
}
