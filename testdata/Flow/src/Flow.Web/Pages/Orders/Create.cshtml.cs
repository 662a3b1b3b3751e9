using Flow.Core;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Flow.Web.Pages.Orders;

public sealed class CreateModel(IMediator mediator) : PageModel
{
    public async Task OnPostAsync()
    {
        var command = new CreateOrderCommand("web", 1);
        await mediator.Send(command);
    }
}
