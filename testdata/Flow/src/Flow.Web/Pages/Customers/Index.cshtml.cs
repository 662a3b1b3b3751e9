using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Flow.Web.Pages.Customers;

// Served at /Customers and at /Customers/Index (Razor Pages maps an Index page at both).
public sealed class IndexModel : PageModel
{
    public void OnGet()
    {
    }
}
