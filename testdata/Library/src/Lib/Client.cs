using System;
using System.Threading.Tasks;

namespace Lib;

/// <summary>Public API of a published library: its users are outside the solution, so nothing here is "unused"
/// because the solution's own benchmarks (an Exe) reference the library.</summary>
public class Client
{
    public void Send()
    {
        Shared.Guard.NotNull(this);
    }

    public int Retry(int attempts) => attempts;

    /// <summary>Public API nothing in the solution calls: its users are the package's.</summary>
    public void Close()
    {
    }

    /// <summary>Not public API: nothing calls it.</summary>
    internal void Flush()
    {
    }

    /// <summary>Dapper's SqlMapper.Async.cs: a generic async overload beside a plain one. A stack frame names its state
    /// machine, `&lt;QueryAsync&gt;d__9`1.MoveNext()`: the generic one, on the frame's line.</summary>
    public Task<int> QueryAsync(string sql) => QueryAsync<int>(sql);

    public async Task<T> QueryAsync<T>(string sql)
    {
        await Task.Yield();
        return sql.Length == 0 ? throw new ArgumentException("empty", nameof(sql)) : default!;
    }

#if NET46
    /// <summary>Dapper's tests call SkipIfMsDataClient() only in `#if ENTITY_FRAMEWORK` (net481 only).</summary>
    internal void CloseLegacy() => FlushLegacy();
#else
    /// <summary>Declared in both branches: the inactive branch declaring it is no use of it (unused).</summary>
    internal void CloseLegacy() { }
#endif

    /// <summary>Named only in the inactive branch above: no reference binds there, yet it is not unused.</summary>
    internal void FlushLegacy()
    {
    }
}
