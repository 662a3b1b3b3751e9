using CommunityToolkit.Mvvm.ComponentModel;
using CommunityToolkit.Mvvm.Input;

namespace Generated.App;

public partial class EditorViewModel : ObservableObject
{
    // Read and written by the generated Title property only.
    [ObservableProperty]
    private string _title = "";

    public int Saves { get; private set; }

    // Called by the generated Title setter.
    partial void OnTitleChanged(string value) => Saves = 0;

    // Called by the generated SaveCommand.
    [RelayCommand]
    private void Save() => Saves++;

    // Dead: nothing calls it, generated or not.
    private void Forgotten() => Saves--;
}
