// Hangfire.Core's LanguagePolyfills.cs: types the compiler needs for `init` and nullable annotations on an older
// target framework, which the code uses without naming them (netstandard2.0 has none of them).
namespace System.Runtime.CompilerServices
{
    internal static class IsExternalInit
    {
    }
}

namespace System.Diagnostics.CodeAnalysis
{
    [AttributeUsage(AttributeTargets.Parameter)]
    internal sealed class MaybeNullWhenAttribute(bool returnValue) : Attribute
    {
        public bool ReturnValue { get; } = returnValue;
    }
}
