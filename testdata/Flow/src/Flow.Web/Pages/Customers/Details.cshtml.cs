using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Flow.Web.Pages.Customers;

// `@page` has no {handler?}: OnGetHistory runs for GET /Customers/Details?handler=History.
public sealed class DetailsModel : PageModel
{
    public string Shown { get; private set; } = "";

    public void OnGet() => Shown = "details";

    public void OnGetHistory() => Shown = "history";
}
