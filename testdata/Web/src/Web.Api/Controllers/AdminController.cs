using Microsoft.AspNetCore.Mvc;
using Web.Api.Services;

namespace Web.Api.Controllers;

[Route("admin")]
public sealed class AdminController(IOrderStore store) : Controller
{
    [HttpDelete("~/purge/{days:int}")]
    public async Task<IActionResult> Purge(int days) => Ok(await store.PurgeAsync(days));

    [HttpPut("users/{id:guid}")]
    public IActionResult RenameUser(Guid id) => NoContent();

    [HttpGet]
    [Route("[action]/{page?}")]
    public IActionResult Stats(int? page) => Ok(page);

    [HttpPatch("flags")]
    [HttpPost("flags")]
    public IActionResult SetFlags() => NoContent();
}
