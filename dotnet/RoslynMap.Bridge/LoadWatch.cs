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
        var hosts = new BuildHostWatch();
        string? why = null;
        var wait = ((IAsyncResult)task).AsyncWaitHandle;
        while (!wait.WaitOne(TimeSpan.FromMilliseconds(Math.Min(1000, Math.Max(1, (limit - clock.Elapsed).TotalMilliseconds)))))
        {
            if (clock.Elapsed >= limit)
            {
                why = $"MSBuildWorkspace did not finish within {limit.TotalSeconds:0.###} s";
                break;
            }
            if (hosts.GoneFor(clock.Elapsed) is { } gone)
            {
                why = $"the MSBuild build host exited {gone.TotalSeconds:0} s ago while MSBuildWorkspace still waited for it";
                break;
            }
        }
        if (why is not null)
        {
            cts.Cancel();
            _ = task.ContinueWith(t => t.Exception, TaskContinuationOptions.OnlyOnFaulted); // observed, never rethrown
            var seen = failures();
            throw new TimeoutException($"{TimeoutMessage}: {why} " +
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

    /// <summary>
    /// Linux only (/proc): notices that every build host this process started has exited while the open is
    /// still pending. The hang seen in issue 17 was exactly that: no BuildHost child alive, the workspace
    /// waiting on an RPC answer that can no longer come. A host exits normally only when the workspace
    /// disposes it at the end of the open, so one gone for longer than the grace period means a stuck open.
    /// </summary>
    private sealed class BuildHostWatch
    {
        private static readonly TimeSpan Grace = TimeSpan.FromSeconds(20);
        private readonly bool _enabled = OperatingSystem.IsLinux() && Directory.Exists("/proc/self/task");
        private bool _seen;
        private TimeSpan? _goneSince;
        private TimeSpan? _lastCheck;

        public TimeSpan? GoneFor(TimeSpan now)
        {
            if (!_enabled || (_lastCheck is { } last && now - last < TimeSpan.FromSeconds(2))) return null;
            _lastCheck = now;
            if (AnyHostAlive())
            {
                _seen = true;
                _goneSince = null;
                return null;
            }
            if (!_seen) return null;
            _goneSince ??= now;
            return now - _goneSince.Value >= Grace ? now - _goneSince.Value : null;
        }

        private bool AnyHostAlive()
        {
            try
            {
                foreach (var task in Directory.EnumerateDirectories("/proc/self/task"))
                {
                    var children = File.ReadAllText(Path.Combine(task, "children"));
                    foreach (var pid in children.Split(' ', StringSplitOptions.RemoveEmptyEntries))
                    {
                        var cmdline = File.ReadAllText($"/proc/{pid}/cmdline");
                        if (cmdline.Contains("BuildHost", StringComparison.Ordinal)) return true;
                    }
                }
            }
            catch (IOException)
            {
                return true; // a child vanished mid-read, or /proc is unreadable: assume alive, the deadline still holds
            }
            catch (UnauthorizedAccessException)
            {
                return true;
            }
            return false;
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
