using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Flow.Web.Pages;

public sealed class CatalogModel : PageModel
{
    public void OnGet()
    {
    }

    // Called only from Catalog.cshtml: the Razor generator's code is not indexed (symbols_unused must not say
    // unused, refs_find says where markup names it).
    public string PriceLabel(decimal price) => $"{price:0.00} EUR";
}
