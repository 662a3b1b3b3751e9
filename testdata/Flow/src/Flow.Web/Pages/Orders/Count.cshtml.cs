using Flow.Core;
using Flow.Data;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Flow.Web.Pages.Orders;

// Contoso's slices: the page sends a query whose handler reads the table. The Orders table is reached from
// GET /Orders/Count through the mediator (surfaces_list_db_tables with_endpoints listed none).
public sealed class CountModel(IMediator mediator) : PageModel
{
    public int Total { get; private set; }

    public async Task OnGetAsync() => Total = await mediator.Send(new CountOrdersQuery());
}

public sealed record CountOrdersQuery : IRequest<int>;

public sealed class CountOrdersHandler(FlowDbContext db) : IRequestHandler<CountOrdersQuery, int>
{
    public Task<int> Handle(CountOrdersQuery request, CancellationToken cancellationToken) =>
        Task.FromResult(db.Orders.Count());
}
