namespace Xaml.App.Controls;

// A control: XAML sets Level as an attribute, binds Note through `#badge.Note`, and Accent by a TemplateBinding.
public class Badge
{
    internal int Level { get; set; }
    internal string Note => "note";
    internal string Accent => "red";
    internal string Shade => "no XAML names it";
}

// Attached properties (Avalonia's DialogManager.Register, WPF's Grid.Row): XAML sets them through these accessors.
public static class Layout
{
    public static int GetColumn(object element) => 0;
    public static void SetColumn(object element, int value) { }
    public static int GetRow(object element) => 0;
    public static void SetRow(object element, int value) { }
    public static int GetSpan(object element) => 0;
    public static void SetSpan(object element, int value) { }
}

public static class Tips
{
    public static string GetTip(object element) => "";
    public static void SetTip(object element, string value) { }
}

// WPF UI's SymbolIconExtension: XAML writes `{local:Glyph Star}`, without the suffix, and its argument names an enum
// member (converted from the text).
public class GlyphExtension(GlyphKind kind)
{
    internal GlyphKind Kind => kind;
}

public enum GlyphKind
{
    Star,
    Heart,
}
