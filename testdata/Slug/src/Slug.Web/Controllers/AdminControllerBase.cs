using Microsoft.AspNetCore.Mvc;

namespace Slug.Web.Controllers;

public static class Areas
{
    public const string Admin = "Admin";
}

// grandnode's BaseAdminController: [Area] on an abstract base is inherited by every admin controller.
[Area(Areas.Admin)]
public abstract class AdminControllerBase : Controller
{
}
