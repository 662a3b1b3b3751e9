using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Web.Api.Pages;

public sealed class IndexModel : PageModel
{
    public void OnGet()
    {
    }

    public Task<IActionResult> OnPostAsync() => Task.FromResult<IActionResult>(RedirectToPage());
}
