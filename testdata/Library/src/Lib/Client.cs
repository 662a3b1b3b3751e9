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
}
