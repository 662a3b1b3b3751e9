namespace Xaml.App.Services;

// Avalonia.Samples' DialogManager: `svc:DialogHost.Register="{Binding}"` sets it.
public static class DialogHost
{
    public static object? GetRegister(object element) => null;
    public static void SetRegister(object element, object? value) { }
}
