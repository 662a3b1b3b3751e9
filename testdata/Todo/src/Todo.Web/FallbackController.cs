using Microsoft.AspNetCore.Mvc;

namespace Todo.Web;

/// <summary>Kavita's SPA fallback: `MapFallbackToController("Index", "Fallback")` runs this action for every path no
/// other endpoint serves.</summary>
public class FallbackController : Controller
{
    public IActionResult Index() => Content("index");
}
