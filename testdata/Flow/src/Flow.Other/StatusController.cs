using Microsoft.AspNetCore.Mvc;

namespace Flow.Other;

/// <summary>A controller of another app: Flow.Web's conventional route cannot reach it (Flow.Web does not
/// reference Flow.Other), as bitwarden/server's ten hosts each map the default route for their own controllers.</summary>
public sealed class StatusController : Controller
{
    public IActionResult Ping() => Ok();
}
