using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Web.Api.Pages.Basket;

public sealed class CheckoutModel : PageModel
{
    public void OnGet(int? id)
    {
    }

    public IActionResult OnPostApplyCoupon(string code) => Page();

    public async Task<IActionResult> OnPostAsync()
    {
        await Task.Yield();
        return RedirectToPage("/Index");
    }

    public void Helper()
    {
    }
}
