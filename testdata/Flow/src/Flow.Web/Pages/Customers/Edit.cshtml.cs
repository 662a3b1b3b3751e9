using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Flow.Web.Pages.Customers;

public sealed class EditModel : PageModel
{
    public int Id { get; private set; }

    public void OnGet(int id) => Id = id;

    public IActionResult OnPost(int id) => RedirectToPage("Index");
}
