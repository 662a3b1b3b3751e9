using System.Collections;
using System.Runtime.CompilerServices;

[assembly: Implicit.Marker("implicit")]

namespace Implicit;

/// <summary>A range walked by foreach through the enumerator pattern (no interface).</summary>
public sealed class Range
{
    public Range(int count) { Count = count; }

    public int Count { get; }

    public RangeEnumerator GetEnumerator() => new RangeEnumerator(Count);
}

public struct RangeEnumerator
{
    private readonly int _count;
    private int _index;

    public RangeEnumerator(int count) { _count = count; _index = -1; }

    public int Current => _index;

    public bool MoveNext() => ++_index < _count;
}

/// <summary>Deconstructed into its parts.</summary>
public readonly struct Point
{
    public Point(int x, int y) { X = x; Y = y; }

    public int X { get; }
    public int Y { get; }

    public void Deconstruct(out int x, out int y) { x = X; y = Y; }

    public static implicit operator Point(int both) => new Point(both, both);
}

/// <summary>Filled by a collection initializer.</summary>
public sealed class Bag : IEnumerable
{
    private int _total;

    public int Total => _total;

    public void Add(int item) => _total += item;

    IEnumerator IEnumerable.GetEnumerator() => throw new System.NotSupportedException();
}

/// <summary>Awaited through the awaiter pattern.</summary>
public sealed class Later
{
    public LaterAwaiter GetAwaiter() => new LaterAwaiter();
}

public sealed class LaterAwaiter : INotifyCompletion
{
    public bool IsCompleted => true;

    public int GetResult() => 42;

    public void OnCompleted(System.Action continuation) => continuation();
}

/// <summary>Disposed by using statements and declarations.</summary>
public sealed class Lease : System.IDisposable
{
    public int Released { get; private set; }

    public void Dispose() => Released++;
}

/// <summary>Disposed by `await using`.</summary>
public sealed class Pool : System.IAsyncDisposable
{
    public System.Threading.Tasks.ValueTask DisposeAsync() => default;
}

/// <summary>Queried with query syntax: the clauses bind to these methods.</summary>
public sealed class Source
{
    public Source Where(System.Func<int, bool> predicate) => this;

    public Source Select(System.Func<int, int> selector) => this;
}

/// <summary>Named by an assembly attribute: a reference no indexed symbol encloses.</summary>
[System.AttributeUsage(System.AttributeTargets.All)]
public sealed class MarkerAttribute : System.Attribute
{
    public MarkerAttribute(string name) { Name = name; }

    public string Name { get; }
}

/// <summary>Converted from an int by its base's operator, in a cast to the derived type (Newtonsoft.Json's
/// `(JValue)11.1f` runs JToken's `implicit operator JToken(float)`).</summary>
public class Token
{
    public static implicit operator Token(int value) => new Leaf();
}

/// <summary>What the cast asks for.</summary>
public sealed class Leaf : Token;
