namespace Maui.Widget;

// Named by Maui.App's XAML, which references no project: a reference to a project that did not load may be missing.
public static class WidgetGlyphs
{
    public static readonly string Cloud = "c";
}
