using Flow.Core;

namespace Flow.Web;

public sealed class Throttle(ISettingsReader settings)
{
    public string Limit() => settings.Read("RateLimit");
}
