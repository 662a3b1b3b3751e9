namespace Xaml.App.Converters;

// Avalonia.Samples' FuncValueConverters: XAML takes a member with `{x:Static conv:Converters.StatusToBrush}`.
public static class Converters
{
    internal static Func<string, string> StatusToBrush { get; } = status => status == "ok" ? "Green" : "Red";

    internal static string Unnamed() => "no XAML names it";
}
