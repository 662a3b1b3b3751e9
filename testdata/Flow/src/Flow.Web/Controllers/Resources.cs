using Flow.Core.Queueing;
using Flow.Core.Subscriptions;
using Microsoft.AspNetCore.Mvc;

namespace Flow.Web.Controllers;

// Radarr's RestController<TResource>: the GET by id action is the base's, each concrete controller's route, and it
// calls the abstract GetById on this through a helper. Reached from AuthorController's route, it runs
// AuthorController's override only (ArchivedAuthorController, which overrides nothing, runs AuthorController's).
public abstract class ResourceController<TResource> : ControllerBase
{
    [HttpGet("{id:int}")]
    public TResource GetByIdWithErrorHandler(int id) => Fetch(id);

    protected abstract TResource GetById(int id);

    private TResource Fetch(int id) => GetById(id);
}

[ApiController]
[Route("api/authors")]
public class AuthorController : ResourceController<string>
{
    protected override string GetById(int id) => "author " + id;
}

[ApiController]
[Route("api/archived-authors")]
public sealed class ArchivedAuthorController : AuthorController
{
}

[ApiController]
[Route("api/labels")]
public sealed class LabelController : ResourceController<int>
{
    protected override int GetById(int id) => id;
}

[ApiController]
[Route("api/commands")]
public sealed class CommandsController(CommandQueue queue) : ControllerBase
{
    [HttpPost("refresh")]
    public void Refresh() => queue.Push(new RefreshCatalogCommand());
}

// Publishes on the bus Mailer and Ledger subscribe to (Flow.Core/EventBus.cs): InvoicePaid has subscribers, StockCounted
// none.
[ApiController]
[Route("api/invoices")]
public sealed class InvoicesController(IBus bus) : ControllerBase
{
    [HttpPost("{id}/pay")]
    public void Pay(string id)
    {
        bus.Publish(new InvoicePaid(id));
        bus.Publish(new StockCounted(1));
    }
}
