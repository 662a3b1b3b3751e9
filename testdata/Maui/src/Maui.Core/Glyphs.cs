namespace Maui.Core;

public static class Glyphs
{
    // Named by Maui.App's RankingsPage.xaml only.
    public static readonly string Star = "*";

    // Dead.
    public static readonly string Moon = "(";
}
