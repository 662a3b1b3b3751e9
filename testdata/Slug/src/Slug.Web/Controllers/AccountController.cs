using Microsoft.AspNetCore.Mvc;

namespace Slug.Web.Controllers;

public sealed class AccountController : Controller
{
    // Reached by the default patterns and by the "signin" route, whose defaults name it.
    public IActionResult SignIn() => Ok();
}
