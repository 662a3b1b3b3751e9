using Xunit;
using Xunit.Abstractions;
using Xunit.Sdk;

// xunit makes its test framework from the type this string names: nothing references the class.
[assembly: TestFramework("Critter.Tests.CritterTestFramework", "Critter.Tests")]

namespace Critter.Tests;

public sealed class CritterTestFramework : XunitTestFramework
{
    public CritterTestFramework(IMessageSink messageSink) : base(messageSink)
    {
    }
}
