using Lib;
using Xunit;

namespace Lib.Tests;

public class ClientTests
{
    /// <summary>Polly's RetryHelperTests: an FsCheck property, written namespace-qualified, is a test.</summary>
    [FsCheck.Xunit.Property(MaxTest = 10)]
    public void RetryKeepsTheAttempts(int attempts) => Assert.Equal(attempts, new Client().Retry(attempts));
}
