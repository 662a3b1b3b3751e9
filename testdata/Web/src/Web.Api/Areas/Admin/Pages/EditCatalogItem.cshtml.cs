using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Web.Api.Areas.Admin.Pages;

public sealed class EditCatalogItemModel : PageModel
{
    public Task OnGetAsync(int id) => Task.CompletedTask;

    public Task OnPostAsync(int id) => Task.CompletedTask;
}
