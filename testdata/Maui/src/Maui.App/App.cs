namespace Maui.App;

public class App : Application
{
    protected override Window CreateWindow(IActivationState? activationState) => new(new AppShell());
}

public class AppShell : Shell
{
}
