using Maui.App.Services;
using Maui.App.ViewModels;
using Maui.App.Views;

namespace Maui.App;

// Called by each platform's entry point (Platforms/*), which MAUI's build picks by target framework.
public static class MauiProgram
{
    public static MauiApp CreateMauiApp()
    {
        var builder = MauiApp.CreateBuilder();
        builder.UseMauiApp<App>();
        builder.Services.AddSingleton<RankingsViewModel>();
        builder.Services.AddSingleton<RankingsPage>();
        builder.RegisterServices();
        return builder.Build();
    }
}

public static class ServiceRegistrations
{
    // Through a local holding the collection (IfpaMaui's `var s = builder.Services;`).
    public static MauiAppBuilder RegisterServices(this MauiAppBuilder builder)
    {
        var s = builder.Services;
        s.AddSingleton<IRankingsService, RankingsService>();
        return builder;
    }
}
