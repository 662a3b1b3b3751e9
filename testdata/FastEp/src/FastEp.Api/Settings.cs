namespace FastEp.Api;

/// <summary>An override named Configure that is not an endpoint: its Get is its own. No route.</summary>
public class Startup
{
    public virtual void Configure()
    {
    }
}

public sealed class Settings : Startup
{
    private readonly List<string> _keys = [];

    public override void Configure() => Get("/not-a-route");

    private void Get(string key) => _keys.Add(key);
}
