using System.Reflection;

namespace RoslynMap.Bridge;

public sealed partial class IndexSession
{
    /// <summary>A queued document as a stall message names it: its path and project.</summary>
    private string DescribeDocument(int index)
    {
        if (index >= _queue.Count)
        {
            var item = index - _queue.Count;
            return $"generated code of {_loaded.Projects[item / GeneratedShares].Name} (part {item % GeneratedShares + 1} of {GeneratedShares})";
        }
        var (project, docId) = _queue[index];
        var path = _extractionSolution.GetDocument(docId)?.FilePath;
        return $"{(path is null ? "document " + (index + 1) : _paths.Relative(path))} ({project.Name})";
    }

    /// <summary>
    /// Stops the host (pythonnet) from scanning each assembly loaded from now on. Call once the bridge's
    /// types are imported. Returns whether the scan was found and detached.
    /// </summary>
    /// <remarks>
    /// pythonnet handles AppDomain.AssemblyLoad by reading every newly loaded assembly's types
    /// (AssemblyManager.ScanAssembly, GetTypes) on the thread that loaded it. Roslyn loads analyzer and
    /// source-generator assemblies on thread-pool threads while it builds compilations in parallel, so each
    /// load then pulls in the assembly's dependencies from inside the load notification. A worker was caught
    /// deadlocked that way (tests, WarmOverlay; and once in extraction): every thread waiting on one runtime
    /// lock whose owner, a thread-pool thread with "Microsoft.Interop.VtableIndexStubGenerator" on its stack,
    /// waited on a managed lock. Python only uses the bridge's own types, imported before this call, so the
    /// scan buys nothing and costs a GetTypes of every analyzer assembly.
    /// </remarks>
    public static bool DetachHostAssemblyScan()
    {
        var manager = Type.GetType("Python.Runtime.AssemblyManager, Python.Runtime");
        var field = manager?.GetField("lhandler", BindingFlags.NonPublic | BindingFlags.Static);
        if (field?.GetValue(null) is not AssemblyLoadEventHandler handler) return false;
        AppDomain.CurrentDomain.AssemblyLoad -= handler;
        return true;
    }

    /// <summary>Whether the host's (pythonnet's) assembly-load handler is subscribed: tests check that
    /// loading the bridge detached it.</summary>
    public static bool HostAssemblyScanAttached()
    {
        // AppDomain.AssemblyLoad is stored in AssemblyLoadContext's static field-like event.
        var field = typeof(System.Runtime.Loader.AssemblyLoadContext).GetField("AssemblyLoad",
            BindingFlags.NonPublic | BindingFlags.Static);
        return field?.GetValue(null) is Delegate handlers && handlers.GetInvocationList()
            .Any(h => h.Method.DeclaringType?.FullName == "Python.Runtime.AssemblyManager");
    }
}
