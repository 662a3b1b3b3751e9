using Flow.Core;
using Microsoft.Extensions.Configuration;

namespace Flow.Data;

public sealed class ConfigSettingsReader(IConfiguration configuration) : ISettingsReader
{
    public string Read(string name) => configuration[$"Flow:{name}"] ?? "";
}
