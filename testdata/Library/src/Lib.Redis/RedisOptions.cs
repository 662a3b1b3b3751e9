using System;

namespace Lib.Redis;

public class RedisOptions
{
    public string? Connection { get; set; }
}

/// <summary>CAP's CapRedisOptionsExtensions: the app calls one overload, the package's users the others.</summary>
public static class RedisOptionsExtensions
{
    public static RedisOptions UseRedis(this RedisOptions options) => options.UseRedis(_ => { });

    public static RedisOptions UseRedis(this RedisOptions options, string connection) =>
        options.UseRedis(o => o.Connection = connection);

    public static RedisOptions UseRedis(this RedisOptions options, Action<RedisOptions> configure)
    {
        configure(options);
        return options;
    }

    /// <summary>Not the package's API: nothing calls it.</summary>
    internal static void Reset(RedisOptions options) => options.Connection = null;
}
