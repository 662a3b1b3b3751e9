using Implicit;

var total = 0;
foreach (var i in new Range(3))
    total += i;

var (x, y) = new Point(1, 2);
var bag = new Bag { 1, 2, 3 };
var answer = await new Later();

using (var lease = new Lease())
{
    total += lease.Released;
}
using var held = new Lease();
await using (var pool = new Pool()) { }
foreach (var (px, py) in new[] { new Point(3, 4) })
    total += px * py;

var query = from n in new Source() where n > 0 select n + 1;
Point converted = 7;
var leaf = (Leaf)9;
System.Console.WriteLine(Users.Sum(new Range(2)) + total + x + y + bag.Total + answer + converted.X);

static class Users
{
    public static int Sum(Range range)
    {
        var sum = 0;
        foreach (var item in range) sum += item;
        return sum;
    }
}
