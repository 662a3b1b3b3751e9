// MSTest's attributes in their own namespace (the package is not restored here), as testdata/Tested declares them.
namespace Microsoft.VisualStudio.TestTools.UnitTesting
{
    [System.AttributeUsage(System.AttributeTargets.Class)]
    public sealed class TestClassAttribute : System.Attribute
    {
    }

    [System.AttributeUsage(System.AttributeTargets.Method)]
    public sealed class AssemblyInitializeAttribute : System.Attribute
    {
    }

    public sealed class TestContext
    {
        public void WriteLine(string message) => System.Console.WriteLine(message);
    }
}
