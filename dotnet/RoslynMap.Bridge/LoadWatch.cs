using System.Diagnostics;
using System.Runtime.ExceptionServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;

namespace RoslynMap.Bridge;

/// <summary>
/// Bounds MSBuildWorkspace's open. Roslyn's build host RPC only honours a cancellation token before a
/// request is written; once written, the caller waits for the answer with no timeout. If the build
/// host goes away without the answer being failed, OpenSolutionAsync never completes. So we wait on
/// the task ourselves with a deadline (ROSLYNMAP_OPEN_TIMEOUT_SECONDS, default 600), cancel the token
/// for whatever still listens, and fail with the last load step; the worker process is then replaced.
/// </summary>
internal static class LoadWatch
{
    /// <summary>Start of the message of a load that timed out (the Python worker matches it).</summary>
    public const string TimeoutMessage = "loading the solution timed out";

    private static volatile string s_phase = "";

    /// <summary>What the open did last, for a stalled worker's diagnosis.</summary>
    public static string Phase => s_phase;

    private static TimeSpan Limit =>
        TimeSpan.FromSeconds(double.TryParse(Environment.GetEnvironmentVariable("ROSLYNMAP_OPEN_TIMEOUT_SECONDS"),
            System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var s) && s > 0 ? s : 600);

    public static T Run<T>(string path, Func<IProgress<ProjectLoadProgress>, CancellationToken, Task<T>> open, Func<string> failures)
    {
        var clock = Stopwatch.StartNew();
        var steps = 0;
        s_phase = $"opening {path}: no project step finished yet";
        var progress = new Recorder(p =>
        {
            var count = Interlocked.Increment(ref steps);
            var tfm = p.TargetFramework is { Length: > 0 } t ? $" ({t})" : "";
            s_phase = $"opening {path}: step {count} finished at {clock.Elapsed.TotalSeconds:0.0} s: " +
                      $"{p.Operation} {Path.GetFileName(p.FilePath)}{tfm}";
        });
        using var cts = new CancellationTokenSource();
        var task = open(progress, cts.Token);
        var limit = Limit;
        if (!((IAsyncResult)task).AsyncWaitHandle.WaitOne(limit))
        {
            cts.Cancel();
            _ = task.ContinueWith(t => t.Exception, TaskContinuationOptions.OnlyOnFaulted); // observed, never rethrown
            var seen = failures();
            throw new TimeoutException($"{TimeoutMessage}: MSBuildWorkspace did not finish within {limit.TotalSeconds:0.###} s " +
                                       $"(last step: {s_phase})" + (seen.Length > 0 ? $"; workspace diagnostics: {seen}" : ""));
        }
        try
        {
            return task.GetAwaiter().GetResult();
        }
        catch (AggregateException e) when (e.InnerException is not null)
        {
            ExceptionDispatchInfo.Capture(e.InnerException).Throw();
            throw;
        }
    }

    // Progress<T> posts to a synchronization context; this records on the reporting thread at once.
    private sealed class Recorder(Action<ProjectLoadProgress> record) : IProgress<ProjectLoadProgress>
    {
        public void Report(ProjectLoadProgress value) => record(value);
    }
}

public sealed partial class IndexSession
{
    /// <summary>The last step MSBuildWorkspace finished while opening (read by the worker's watchdog).</summary>
    public static string LoadPhase => LoadWatch.Phase;
}
