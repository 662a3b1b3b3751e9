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
        return builder.Build();
    }
}
