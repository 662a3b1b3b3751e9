namespace Xaml.App.ViewModels;

// Internal properties: public ones are left out as serialization, so these show what the XAML rules find.
public class MainViewModel
{
    internal string Title => "Main";
    internal Order Order { get; } = new();
    internal List<string> Items { get; } = [];
    internal string Greeting => "Hello";
    internal string Farewell => "Bye";
    internal string Caption => "Caption";
    internal string Status => "ok";
    internal List<ShapeOption> Options { get; } = [];
    internal string Unbound => "no XAML binds it";
}

public class Order
{
    internal decimal Total => 0m;
    internal decimal Tax => 0m;
}

public class ShapeOption
{
    internal string Label => "Circle";
    internal int Code => 1;
    internal string Hint => "no XAML names it";
}

// IDataTemplateSample's ShapeType: XAML names members by an x:Key and as a collection's element text.
public enum ShapeKind
{
    Circle,
    Square,
    Triangle,
}

public class SettingsViewModel
{
    internal void Save() { }

    internal void Discard() { }
}
