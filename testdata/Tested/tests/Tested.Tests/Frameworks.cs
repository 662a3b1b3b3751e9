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

namespace Moq
{
    using System;
    using System.Linq.Expressions;

    /// <summary>Moq's shape (the package is not restored here): Setup and Verify take an expression tree.</summary>
    public class Mock<T> where T : class
    {
        public T Object => default!;

        public void Setup<TResult>(Expression<Func<T, TResult>> call)
        {
        }

        public void Verify<TResult>(Expression<Func<T, TResult>> call)
        {
        }
    }
}
