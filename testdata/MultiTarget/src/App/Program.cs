using Lib;

namespace App;

public static class Program
{
    public static void Main()
    {
        Console.WriteLine(Formatter.Format(42));
        Console.WriteLine(Formatter.Format("x", 3));
        Console.WriteLine(Formatter.Describe("plain"));
        Console.WriteLine(Formatter.Describe(new Uri("http://example.com")));
        var formatter = new Formatter { Name = "f" };
        Console.WriteLine(formatter.Name);
    }

    // Deliberate compile errors: each call must be stored as unresolved with Roslyn's candidates,
    // never as a call to one of them.
    public static void Broken()
    {
        Console.WriteLine(Formatter.Describe(null));   // CS0121: Describe(string) or Describe(Uri)?
        Console.WriteLine(Formatter.Secret());         // CS0122: internal to Lib
        Console.WriteLine(Formatter.Format("x", "y")); // CS1503: no overload takes (string, string)
    }
}
