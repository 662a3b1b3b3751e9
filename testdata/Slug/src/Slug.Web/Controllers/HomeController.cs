using Microsoft.AspNetCore.Mvc;

namespace Slug.Web.Controllers;

public sealed class HomeController : Controller
{
    [HttpGet]
    public IActionResult AboutUs() => Ok();
}
