namespace Xaml.App;

public static class Program
{
    // The UI framework would load the views from their XAML; nothing here names them.
    public static void Main() => Console.WriteLine("Xaml.App");
}
