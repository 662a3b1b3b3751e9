using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Conventions.Web.Pages;

/// <summary>Only a POST handler (Contoso's Courses/Create): the page still renders on GET.</summary>
public sealed class SubscribeModel : PageModel
{
    public IActionResult OnPostAsync() => RedirectToPage("/About");
}
