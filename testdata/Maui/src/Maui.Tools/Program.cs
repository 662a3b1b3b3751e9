namespace Maui.Tools;

public static class Program
{
    public static void Main() => Console.WriteLine(Exporter.Export());
}

internal static class Exporter
{
    internal static string Export() => "ok";

    // Dead: Maui.App's XAML names a Star and an OnRefreshClicked, not these.
    internal static readonly string Star = "*";

    private static void OnRefreshClicked() => Console.WriteLine("refresh");
}
