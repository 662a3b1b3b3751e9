namespace Conventions.Web.Components.Pages;

public partial class Stepper
{
    private int count;

    // Given to @onclick as a method group: the markup's only use (eShopOnWeb's OnSaveClick="ReloadCatalogItems").
    private void Step() => count++;

    // Named nowhere: truly unused.
    private void Reset() => count = 0;
}
