using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Flow.Web.Pages;

public sealed class CatalogModel : PageModel
{
    public void OnGet()
    {
    }
}
