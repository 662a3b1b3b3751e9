using Maui.App.ViewModels;

namespace Maui.App.Views;

public partial class RankingsPage : ContentPage
{
    public RankingsPage(RankingsViewModel viewModel)
    {
        InitializeComponent();
        BindingContext = viewModel;
    }

    // Named by RankingsPage.xaml's Clicked="OnRefreshClicked" only.
    void OnRefreshClicked(object sender, EventArgs e) => BindingContext = null;
}
