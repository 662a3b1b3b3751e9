namespace Hierarchy;

// types_hierarchy must find every class below an implementer, however deep:
// IShape <- Shape; Polygon : Shape; Square : Polygon; UnitSquare : Square.
public interface IShape
{
    double Area();
}

// An interface extending IShape: its implementers (and their subclasses) implement IShape too.
public interface ISolid : IShape
{
    double Volume();
}

public class Shape : IShape
{
    public virtual double Area() => 0;
}

public class Polygon : Shape
{
}

public class Square : Polygon
{
    public override double Area() => 4;
}

public sealed class UnitSquare : Square
{
    public override double Area() => 1;
}

public class Cube : ISolid
{
    public double Area() => 6;

    public double Volume() => 1;
}

public class BigCube : Cube
{
}
