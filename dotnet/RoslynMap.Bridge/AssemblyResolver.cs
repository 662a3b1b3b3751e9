using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;

namespace RoslynMap.Bridge;

/// <summary>
/// Resolves Roslyn and its dependencies from the bridge's own directory. Under pythonnet the
/// default probing paths are the host's, not ours, so without this the first Roslyn type fails.
/// </summary>
internal static class AssemblyResolver
{
    private static readonly string Dir =
        Path.GetDirectoryName(typeof(AssemblyResolver).Assembly.Location) ?? AppContext.BaseDirectory;

    // A module initializer runs before any type of this assembly is touched, so the handler is
    // in place before the JIT needs a Roslyn type.
#pragma warning disable CA2255 // this library is loaded by a foreign host, exactly the case the rule exempts
    [ModuleInitializer]
    internal static void Register()
    {
        AssemblyLoadContext.Default.Resolving += Resolve;
    }
#pragma warning restore CA2255

    private static Assembly? Resolve(AssemblyLoadContext context, AssemblyName name)
    {
        if (name.Name is null) return null;
        var candidate = Path.Combine(Dir, name.Name + ".dll");
        return File.Exists(candidate) ? context.LoadFromAssemblyPath(candidate) : null;
    }
}
