using CommunityToolkit.Mvvm.ComponentModel;
using CommunityToolkit.Mvvm.Input;

namespace Generated.App;

// Dead: nothing names the class. Its own generated part names its field and its command's method, which keeps
// neither alive: the class is listed unused, whole.
public partial class OrphanViewModel : ObservableObject
{
    [ObservableProperty]
    private string _name = "";

    [RelayCommand]
    private void Go() => Name = "";
}
