using System;
using System.Collections.Generic;

namespace Implicit;

/// <summary>An attribute of the solution set through named arguments (a property and a field), applied where the
/// walker reads an attribute from its declaration's symbol: a field, an enum member, an accessor.</summary>
[AttributeUsage(AttributeTargets.All)]
public sealed class ColumnAttribute : Attribute
{
    public int Order { get; set; }
    public string? Label;
}

public enum Shade
{
    [Column(Order = 1)] Light,
    Dark,
}

/// <summary>Types named in member signatures, read from the declared symbols: generic arguments, arrays of arrays,
/// nullable value types, tuples, a nested type through its container.</summary>
public sealed class Catalog
{
    [Column(Order = 2, Label = "first")] private Point _first;
    private readonly Dictionary<string, List<Point>> _byName = new();

    public sealed class Entry { }

    public Point?[] Points { [Column(Order = 3)] get; set; } = Array.Empty<Point?>();

    public (Point Start, Catalog.Entry End) Span(Point[][] grid, List<Catalog.Entry>? entries, Shade shade) =>
        (_first, new Entry());

    public event Action<Point>? Moved;

    public IReadOnlyDictionary<string, List<Point>> ByName => _byName;

    /// <summary>`Derived.Nested` names Derived, not Base where Nested is declared.</summary>
    public Derived.Nested Pick(Derived.Nested nested) => nested;

    public void Move(Point to)
    {
        _first = to;
        Moved?.Invoke(to);
    }
}

public class Base
{
    public sealed class Nested { }
}

public sealed class Derived : Base { }
