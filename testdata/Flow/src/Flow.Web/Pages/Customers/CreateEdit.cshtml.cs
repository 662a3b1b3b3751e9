using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Flow.Web.Pages.Customers;

// `@page "{handler?}"` with named handlers only: /Customers/CreateEdit/Edit, or /Customers/CreateEdit?handler=Edit when
// the path leaves the handler out.
public sealed class CreateEditModel : PageModel
{
    public int Id { get; private set; }

    public void OnGetCreate() => Id = 0;

    public Task OnGetEditAsync(int id)
    {
        Id = id;
        return Task.CompletedTask;
    }

    public IActionResult OnPostEdit(int id) => RedirectToPage("Index");
}
