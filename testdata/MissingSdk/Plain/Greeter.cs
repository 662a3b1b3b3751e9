namespace Plain;

public sealed class Greeter
{
    // A genuine error of the code (CS0103), listed before anything the unevaluable Custom project reports.
    public string Greet(string name) => "Hello " + name + Punctuation;
}
