// NUnit's test attribute in its own namespace (the package is not restored here), for tests_find's Test facts.
namespace NUnit.Framework
{
    [System.AttributeUsage(System.AttributeTargets.Method)]
    public sealed class TestAttribute : System.Attribute
    {
    }
}
