using Microsoft.Extensions.Hosting;

namespace Store;

/// <summary>aspire-samples' OrleansVoting: `AddKeyedRedisClient("voting-redis")` reads ConnectionStrings:voting-redis,
/// though Aspire's keyed integrations name that parameter `name`, not `connectionName`.</summary>
public static class Caching
{
    public static void AddCaches(IHostApplicationBuilder builder)
    {
        builder.AddRedisClient("cache");
        builder.AddKeyedRedisClient("sessions");
    }
}
