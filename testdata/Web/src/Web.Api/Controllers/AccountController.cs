using Microsoft.AspNetCore.Mvc;

namespace Web.Api.Controllers;

// No [Route]: every public action is reached through the conventional route in Program.cs.
public sealed class AccountController : Controller
{
    [HttpGet]
    public IActionResult Login(string? returnUrl) => View();

    [HttpPost]
    [ActionName("Login")]
    public Task<IActionResult> LoginAsync(string user, string password) => Task.FromResult<IActionResult>(Redirect("/"));

    public IActionResult Logout() => SignOut();

    [NonAction]
    public string Describe() => "account";

    private IActionResult Hidden() => NoContent();
}
