using Microsoft.AspNetCore.Mvc;

namespace Web.Api.Controllers;

// Conventional like HomeController: `{controller=Home}/{action=Index}/{id?}` lists Index as `/Blog/Index/{id?}`,
// and `/Blog` reaches it too (the action segment defaults to Index); Post needs its action segment.
public sealed class BlogController : Controller
{
    public IActionResult Index() => Content("posts");

    public IActionResult Post(int id) => Content("post " + id);
}
