namespace Xaml.App.Views;

// Code-behind of MainWindow.axaml (its x:Class): the handler it names is used, the other is not.
public partial class MainWindow
{
    private void OnCloseClick(object? sender, EventArgs e) { }

    private void OnHelpClick(object? sender, EventArgs e) { }
}

// A view whose markup is gone: no XAML names it.
public partial class OrphanView
{
}
