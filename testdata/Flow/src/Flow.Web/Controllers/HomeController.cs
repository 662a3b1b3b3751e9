using Microsoft.AspNetCore.Mvc;

namespace Flow.Web.Controllers;

public sealed class HomeController : Controller
{
    public IActionResult Index() => View();

    public IActionResult About() => View();
}
