namespace Maui.Core;

public static class Glyphs
{
    // Named by Maui.App's RankingsPage.xaml only.
    public static readonly string Star = "*";

    // Dead.
    public static readonly string Moon = "(";
}

public static class Weather
{
    // Named only by Maui.Widget's XAML, a project that did not load.
    public static readonly string Sun = "o";
}
