namespace Plain;

public sealed class Greeter
{
    public string Greet(string name) => "Hello " + name;
}
