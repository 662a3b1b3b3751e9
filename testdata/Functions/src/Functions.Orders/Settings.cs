namespace Functions.Orders;

// trading-app-functions-dotnet reads its settings through an interface implemented once with
// Environment.GetEnvironmentVariable, the keys spelled by static properties returning literals.
public interface ISettings
{
    string Get(string key);
}

public sealed class EnvironmentSettings : ISettings
{
    public string Get(string key) => Environment.GetEnvironmentVariable(key) ?? "";
}

public static class SettingKeys
{
    public static string Storage => "StorageAccount";

    public static string Queue { get; } = "Orders__Queue";
}

public sealed class Shipping(ISettings settings)
{
    public string Send() => settings.Get(SettingKeys.Storage) + settings.Get(SettingKeys.Queue);
}
