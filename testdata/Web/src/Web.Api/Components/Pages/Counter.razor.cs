namespace Web.Api.Components.Pages;

public partial class Counter
{
    private int count;

    private void Increment() => count++;
}
