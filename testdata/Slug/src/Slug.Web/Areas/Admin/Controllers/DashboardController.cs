using Microsoft.AspNetCore.Mvc;
using Slug.Web.Controllers;

namespace Slug.Web.Areas.Admin.Controllers;

// In area Admin through its base class: only the area routes reach it, not the default pattern.
public sealed class DashboardController : AdminControllerBase
{
    public IActionResult Index() => Ok();

    public IActionResult Stats() => Ok();
}
