using System.Collections.Concurrent;
using System.Runtime.InteropServices;
using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>
/// Where extraction spends its CPU, for bench/index_split.py: thread CPU seconds summed per phase
/// (tree, diagnostics, walk, json). Off unless ROSLYNMAP_PROFILE=1; then each phase costs two
/// clock_gettime calls.
/// </summary>
internal static class Profile
{
    public static readonly bool On = Environment.GetEnvironmentVariable("ROSLYNMAP_PROFILE") is "1" or "prebind" or "alloc";
    private static readonly ConcurrentDictionary<string, long> Nanos = new();

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec { public long Seconds; public long Nanoseconds; }

    [DllImport("libc", EntryPoint = "clock_gettime")]
    private static extern int ClockGetTime(int clock, out TimeSpec time);

    private const int ThreadCpuClock = 3; // CLOCK_THREAD_CPUTIME_ID

    /// <summary>This thread's CPU time in nanoseconds (0 when profiling is off).</summary>
    public static long Now()
    {
        if (!On || ClockGetTime(ThreadCpuClock, out var t) != 0) return 0;
        return t.Seconds * 1_000_000_000 + t.Nanoseconds;
    }

    /// <summary>Adds the CPU since `since` to `phase`; returns now, to chain phases.</summary>
    public static long Lap(string phase, long since)
    {
        if (!On) return 0;
        var now = Now();
        Nanos.AddOrUpdate(phase, now - since, (_, v) => v + now - since);
        return now;
    }

    /// <summary>ROSLYNMAP_PROFILE=prebind: before the walk, ask the model about every name once, so the walk's
    /// own cost shows apart from the binding the model does for it (an experiment: doubles the lookups).</summary>
    public static readonly bool Prebind = Environment.GetEnvironmentVariable("ROSLYNMAP_PROFILE") is "prebind";

    /// <summary>ROSLYNMAP_PROFILE=nowalk: each document is compiled and its diagnostics kept, but not walked (no
    /// symbols, references or facts), so bench/fair_floor.py --without-walk can show what the index costs beyond the
    /// floor apart from the walk and the rows it writes. Profiling stays off, as in a plain index.</summary>
    public static readonly bool SkipWalk = Environment.GetEnvironmentVariable("ROSLYNMAP_PROFILE") is "nowalk";

    public static void BindAll(SemanticModel model, SyntaxNode root)
    {
        foreach (var node in root.DescendantNodes())
            if (node is Microsoft.CodeAnalysis.CSharp.Syntax.SimpleNameSyntax) model.GetSymbolInfo(node);
    }

    public static string Report() => Json.Write(w =>
    {
        w.WriteStartObject();
        foreach (var (phase, nanos) in Nanos.OrderBy(p => p.Key, StringComparer.Ordinal)) w.WriteNumber(phase, Math.Round(nanos / 1e9, 3));
        if (AllocationListener.Instance is { } listener)
            foreach (var (type, bytes) in listener.ByType.OrderByDescending(p => p.Value).Take(40)) w.WriteNumber("alloc." + type, Math.Round(bytes / 1e6, 1));
        // Process-wide, since the runtime started: the caller subtracts two reports.
        w.WriteNumber("runtime.jit_s", Math.Round(System.Runtime.JitInfo.GetCompilationTime().TotalSeconds, 3));
        w.WriteNumber("runtime.jit_methods", System.Runtime.JitInfo.GetCompiledMethodCount());
        w.WriteNumber("runtime.gc_pause_s", Math.Round(GC.GetTotalPauseDuration().TotalSeconds, 3));
        w.WriteNumber("runtime.allocated_gb", Math.Round(GC.GetTotalAllocatedBytes() / 1e9, 3));
        w.WriteNumber("runtime.gen2_collections", GC.CollectionCount(2));
        w.WriteEndObject();
    });
}

/// <summary>ROSLYNMAP_PROFILE=alloc: the runtime's allocation ticks (one per ~100 KB allocated) summed by type, for
/// bench/index_split.py (which types the index allocates beyond the compile floor's).</summary>
internal sealed class AllocationListener : System.Diagnostics.Tracing.EventListener
{
    public static readonly AllocationListener? Instance =
        Environment.GetEnvironmentVariable("ROSLYNMAP_PROFILE") is "alloc" ? new AllocationListener() : null;
    public readonly ConcurrentDictionary<string, long> ByType = new();

    protected override void OnEventSourceCreated(System.Diagnostics.Tracing.EventSource source)
    {
        if (source.Name == "Microsoft-Windows-DotNETRuntime")
            EnableEvents(source, System.Diagnostics.Tracing.EventLevel.Verbose, (System.Diagnostics.Tracing.EventKeywords)0x1);
    }

    protected override void OnEventWritten(System.Diagnostics.Tracing.EventWrittenEventArgs e)
    {
        if (e.EventName is null || !e.EventName.StartsWith("GCAllocationTick", StringComparison.Ordinal) || e.Payload is null) return;
        var names = e.PayloadNames!;
        var type = names.IndexOf("TypeName") is var t and >= 0 ? e.Payload[t] as string ?? "?" : "?";
        var amount = names.IndexOf("AllocationAmount64") is var a and >= 0 ? Convert.ToInt64(e.Payload[a]) : 100_000;
        ByType.AddOrUpdate(type, amount, (_, v) => v + amount);
    }
}
