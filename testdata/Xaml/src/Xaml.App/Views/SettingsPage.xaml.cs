using Xaml.App.ViewModels;

namespace Xaml.App.Views;

// Code-behind of SettingsPage.xaml (WPF/WinUI): `{x:Bind ViewModel.Save}` and `Loaded="OnPageLoaded"`.
public partial class SettingsPage
{
    internal SettingsViewModel ViewModel { get; } = new();

    private void OnPageLoaded(object? sender, EventArgs e) { }
}
