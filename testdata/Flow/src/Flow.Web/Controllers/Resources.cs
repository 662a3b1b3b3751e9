using Flow.Core.Queueing;
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
