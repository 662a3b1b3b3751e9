using CommunityToolkit.Mvvm.ComponentModel;
using CommunityToolkit.Mvvm.Input;

namespace Maui.App.ViewModels;

public partial class RankingsViewModel : ObservableObject
{
    // Read by the IsBusy property CommunityToolkit.Mvvm generates, which RankingsPage.xaml binds.
    [ObservableProperty]
    bool isBusy;

    [ObservableProperty]
    private string _searchTerm = "";

    // Dead: no attribute, nothing reads it.
    private int retries;

    // Wrapped by the generated LoadRankingsCommand, which RankingsPage.xaml binds.
    [RelayCommand]
    private async Task LoadRankingsAsync() => await Task.Delay(1);

    // Dead: only a button's text says "Refresh".
    private void Refresh() => SearchTerm = "";

    // Called by the generated IsBusy setter only.
    partial void OnIsBusyChanged(bool value)
    {
    }
}
