namespace NUnit.Framework
{
    [System.AttributeUsage(System.AttributeTargets.Method)]
    public sealed class TestAttribute : System.Attribute
    {
    }
}

namespace Microsoft.VisualStudio.TestTools.UnitTesting
{
    [System.AttributeUsage(System.AttributeTargets.Method)]
    public sealed class TestMethodAttribute : System.Attribute
    {
    }
}
