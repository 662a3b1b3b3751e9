using Flow.Core;

namespace Flow.Plugin;

/// <summary>A plugin's implementation of the library's interface: any app may load it, Flow.Web included.</summary>
public sealed class PluginAuditSink : IAuditSink
{
    public void Write(string line) => Console.Error.WriteLine(line);
}
