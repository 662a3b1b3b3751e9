namespace Conventions.Web.Setup;

// Avalonia's previewer and its headless test runner call a static BuildAvaloniaApp() by name (Avalonia.Samples'
// TestAppBuilder, named only by `[assembly: AvaloniaTestApplication(typeof(TestAppBuilder))]`).
public static class Previewer
{
    public static object BuildAvaloniaApp() => new();
}
