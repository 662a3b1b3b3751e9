using Microsoft.AspNetCore.Mvc;

namespace Conventions.Web.Components;

/// <summary>Found by its base and invoked by name (`Component.InvokeAsync("CartSummary")`).</summary>
public sealed class CartSummaryViewComponent : ViewComponent
{
    public IViewComponentResult Invoke(int count) => Content($"{count} items");
}
