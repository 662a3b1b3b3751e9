using Microsoft.AspNetCore.Mvc;

namespace Web.Api.Controllers;

// Reached only through the conventional route in Program.cs: no attribute, no route fact.
public sealed class HomeController : Controller
{
    public IActionResult Index() => Content("home");
}
