using Flow.Core;

namespace Flow.Plugin;

public sealed class PluginSettings(ISettingsReader settings)
{
    public string Mode() => settings.Read("PluginMode");
}
