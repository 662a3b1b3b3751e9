namespace Unbound.Composition;

// Wiring through a container whose package the project does not reference (Radarr's DryIoc did not restore): the
// registration calls bind to nothing, so the index cannot say what they register. surfaces_list(kind="di") says so
// rather than answering "0 registrations" as if there were none. `Register` on a receiver not named like a
// container (an event hook's) is no registration.
public static class ContainerSetup
{
    public static void Wire(Missing.Ioc.IContainer container, System.Reflection.Assembly[] assemblies, Missing.Hooks.IHooks hooks)
    {
        container.RegisterMany(assemblies, serviceTypeCondition: t => t.IsInterface);
        container.Register<IClockSource, SystemClockSource>();
        container.RegisterDelegate<IClockSource>(_ => new SystemClockSource());
        hooks.Register("shutdown");
    }
}

public interface IClockSource;

public sealed class SystemClockSource : IClockSource;

// Named by nothing, but the scan above may register it by the interface its base implements, which a constructor
// takes all of (Radarr's BrowserConfig under UrlBaseReplacementResourceMapperBase): not said unused, as a class
// implementing it itself is not.
public interface IStartupTask;

internal abstract class StartupTaskBase : IStartupTask;

internal sealed class WarmCaches : StartupTaskBase;

public sealed class StartupRunner(IEnumerable<IStartupTask> tasks)
{
    public int Count => tasks.Count();
}

// A marker interface a constructor names only in its body, no parameter's type: nothing resolves it, so a dead
// subclass of its implementer is listed.
public interface IAuditable;

internal abstract class AuditedBase : IAuditable;

internal sealed class AuditedOrder : AuditedBase;

public sealed class AuditLog
{
    public AuditLog() => Kind = typeof(IAuditable).Name;

    public string Kind { get; }
}
