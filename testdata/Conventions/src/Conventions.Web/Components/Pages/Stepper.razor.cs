namespace Conventions.Web.Components.Pages;

public partial class Stepper
{
    private int count;

    // Given to @onclick as a method group: the markup's only use (eShopOnWeb's OnSaveClick="ReloadCatalogItems").
    private void Step() => count++;

    // Named nowhere: truly unused.
    private void Reset() => count = 0;
}

public partial class Stepper
{
    // Named by Stepper.razor (`@Hint()`): Badge's private Hint is not.
    private string Hint() => $"{count} steps";

    // Given to Badge's OnPick parameter.
    private void Pick(int tone) => count = tone;
}
