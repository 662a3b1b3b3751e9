using Microsoft.AspNetCore.Mvc;

namespace Slug.Web.Controllers;

public sealed class HomeController : Controller
{
    // {controller:slugify=Home}/{action:slugify=Index}: `/` reaches it (both segments at their defaults).
    public IActionResult Index() => Ok();

    [HttpGet]
    public IActionResult AboutUs() => Ok();
}
