using Microsoft.Extensions.Configuration;

namespace Derive.Core;

/// <summary>A setting read by name (eShopSupport's helpers): App's call reads `tax:Rate` through it, so a change of
/// the key it makes is a change App's baseline rows depend on.</summary>
public static class Settings
{
    public static string? Rate(IConfiguration configuration, string name) => configuration[$"{name}:Rate"];
}

/// <summary>A command helper (Hangfire's `Create`): App's call runs its SQL through `text`, so a change of what the
/// helper does with it is a change App's baseline rows depend on.</summary>
public static class Commands
{
    public static System.Data.IDbCommand Create(System.Data.IDbConnection connection, string text)
    {
        var command = connection.CreateCommand();
        command.CommandText = text;
        return command;
    }
}
