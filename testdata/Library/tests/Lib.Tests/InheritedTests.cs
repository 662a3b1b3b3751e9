using Lib;
using Xunit;

namespace Lib.Tests;

/// <summary>Dapper's `[FactLongRunning]`, `[FactMySql]`: an xUnit Fact under a name that starts with Fact.</summary>
public sealed class FactLongRunningAttribute : FactAttribute
{
}

public class LongRunningTests
{
    [FactLongRunning]
    public void RetriesForLong() => Assert.Equal(50, new Client().Retry(50));
}

/// <summary>Dapper's `AsyncTests&lt;TProvider&gt;`: the tests are declared by an abstract generic base...</summary>
public abstract class ClientContract<TProvider> where TProvider : new()
{
    [Fact]
    public void Sends() => new Client().Send();
}

public sealed class InMemoryProvider
{
}

/// <summary>...and run by the sealed classes that derive from it, which declare nothing of their own.</summary>
public sealed class InMemoryClientTests : ClientContract<InMemoryProvider>
{
}
