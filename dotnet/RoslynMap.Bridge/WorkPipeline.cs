namespace RoslynMap.Bridge;

/// <summary>
/// Runs per-document work on dedicated threads, ahead of the consumer but at most `window` items
/// beyond what it has taken, and hands results back in input order. Extraction thus continues
/// while Python parses and stores the previous batch, with no barrier between batches.
/// </summary>
internal sealed class WorkPipeline<T> : IDisposable where T : class
{
    // Deeply nested expressions recurse deeply in the binder and in our walker.
    private const int StackBytes = 64 * 1024 * 1024;

    /// <summary>Start of the message of a stall; the Python side retries the run in a fresh process.</summary>
    public const string StallMessage = "extraction stalled";

    // No document finished for this long: a worker is blocked for good (seen rarely, inside Roslyn).
    // Failing beats hanging the caller forever. ROSLYNMAP_STALL_SECONDS overrides it.
    internal static readonly TimeSpan StallLimit = TimeSpan.FromSeconds(
        int.TryParse(Environment.GetEnvironmentVariable("ROSLYNMAP_STALL_SECONDS"), out var s) && s > 0 ? s : 300);

    private readonly Func<int, T> _work;
    private readonly T?[] _results;
    private readonly int _window;
    private readonly object _gate = new();
    private readonly List<Thread> _threads = new();
    private int _claimed;   // next index a worker will take
    private int _taken;     // next index the consumer will take
    private bool _stopped;
    private Exception? _failure;
    private long _lastProgress = Environment.TickCount64; // when a result was last stored or taken
    // What each worker is doing now (index and start), so a stall names the documents it is stuck on.
    private readonly Dictionary<int, (int Index, long Started)> _inProgress = new();
    private readonly Func<int, string> _describe;

    public WorkPipeline(int count, int window, int workers, Func<int, T> work, Func<int, string>? describe = null)
    {
        _work = work;
        _describe = describe ?? (i => $"document {i + 1}");
        _results = new T?[count];
        _window = Math.Max(1, window);
        for (var i = 0; i < Math.Max(1, workers); i++)
        {
            var thread = new Thread(Run, StackBytes) { IsBackground = true, Name = $"roslynmap-worker-{i}" };
            _threads.Add(thread);
            thread.Start();
        }
    }

    public int Count => _results.Length;
    public bool Done => _taken >= _results.Length;

    /// <summary>The next up to `max` results in input order; blocks until they are ready.</summary>
    public List<T> Take(int max)
    {
        lock (_gate)
        {
            var end = Math.Min(_results.Length, _taken + Math.Max(1, max));
            var batch = new List<T>(end - _taken);
            for (var i = _taken; i < end; i++)
            {
                while (_results[i] is null)
                {
                    if (_failure is not null) throw new InvalidOperationException("extraction worker failed", _failure);
                    if (!Monitor.Wait(_gate, StallLimit) && Environment.TickCount64 - _lastProgress >= StallLimit.TotalMilliseconds)
                        throw new TimeoutException($"{StallMessage}: no document finished in {StallLimit.TotalSeconds:0} s " +
                                                   $"(waiting for document {i + 1} of {_results.Length}; {Busy()})");
                }
                batch.Add(_results[i]!);
                _results[i] = null;
                _lastProgress = Environment.TickCount64;
                // Advance as we go, so workers may move past the window while a large batch fills.
                _taken = i + 1;
                Monitor.PulseAll(_gate);
            }
            return batch;
        }
    }

    // Under _gate.
    private string Busy()
    {
        var now = Environment.TickCount64;
        var busy = _inProgress.OrderBy(p => p.Key).Select(p =>
            $"worker {p.Key}: {_describe(p.Value.Index)} for {(now - p.Value.Started) / 1000} s").ToList();
        return busy.Count == 0 ? "no worker busy" : string.Join(", ", busy);
    }

    private void Run()
    {
        var me = Environment.CurrentManagedThreadId;
        while (true)
        {
            int index;
            lock (_gate)
            {
                _inProgress.Remove(me);
                while (!_stopped && _claimed < _results.Length && _claimed >= _taken + _window) Monitor.Wait(_gate);
                if (_stopped || _claimed >= _results.Length) return;
                index = _claimed++;
                _inProgress[me] = (index, Environment.TickCount64);
            }
            T result;
            try
            {
                result = _work(index);
            }
            catch (Exception ex)
            {
                lock (_gate)
                {
                    _failure ??= ex;
                    Monitor.PulseAll(_gate);
                }
                return;
            }
            lock (_gate)
            {
                _results[index] = result;
                _lastProgress = Environment.TickCount64;
                Monitor.PulseAll(_gate);
            }
        }
    }

    public void Dispose()
    {
        lock (_gate)
        {
            _stopped = true;
            Monitor.PulseAll(_gate);
        }
        // Bounded: a thread blocked for good (a stall) must not hang the caller; they are background threads.
        foreach (var thread in _threads) thread.Join(TimeSpan.FromSeconds(10));
    }
}
