using Microsoft.AspNetCore.Mvc;

namespace Slug.Web.Shared
{
    // grandnode's own empty [ApiController] (SharedKernel.Attributes): not MVC's, so it does not make the
    // controllers under it attribute-routed only.
    [AttributeUsage(AttributeTargets.Class)]
    public sealed class ApiControllerAttribute : Attribute
    {
    }
}

namespace Slug.Web.Controllers
{
    [Shared.ApiController]
    public abstract class StoreControllerBase : Controller
    {
    }

    public sealed class CartController : StoreControllerBase
    {
        public IActionResult Index() => Ok();
    }
}
