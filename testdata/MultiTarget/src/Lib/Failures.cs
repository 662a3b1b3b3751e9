using System;
#if NET46
using System.Runtime.Serialization;
#endif

namespace Lib;

/// <summary>Polly's BrokenCircuitException: serializable, with a serialization constructor, for .NET Framework only.
/// A stack trace from net46 names that constructor; indexed for net10.0 it is inactive code, not the other one.</summary>
#if NET46
[Serializable]
#endif
public class CircuitOpenException : Exception
{
    public CircuitOpenException(string message, TimeSpan retryAfter) : base(message)
    {
    }

#if NET46
    protected CircuitOpenException(SerializationInfo info, StreamingContext context) : base(info, context)
    {
    }
#endif
}

/// <summary>Polly's ResiliencePipelineRegistry`1.GetOrAddPipeline: overloads told apart only by the type arguments of
/// a delegate parameter (a trace writes both `Action`1` and `Action`2` as their arity).</summary>
public sealed class Registry<TKey>
{
    public void GetOrAdd(TKey key, Action<Builder> configure)
    {
    }

    public void GetOrAdd(TKey key, Action<Builder, Context<TKey>> configure)
    {
    }

    /// <summary>A generic method's frame writes its type arguments (`GetOrAdd[TResult](...)`): not this one's.</summary>
    public void GetOrAdd<TResult>(TKey key, Action<Builder, Context<TKey>> configure)
    {
    }
}

public sealed class Builder
{
}

public sealed class Context<TKey>
{
}
