using Microsoft.AspNetCore.Mvc;

namespace Flow.Web.Controllers;

// BTCPay's UIManageController, `[Route("account/{action:lowercase=Index}")]`: ASP.NET fills {action} with each
// action's own name (a required route value), so each URL reaches one action; the default lets Index drop it.
[Route("account/{action:alpha=Index}")]
public class ManageController : Controller
{
    [HttpGet]
    public IActionResult Index() => Ok();

    [HttpGet]
    public IActionResult ChangePassword() => Ok();

    [HttpPost]
    public IActionResult ChangePassword(string password) => Ok(password);

    // `~/` leaves the controller's prefix; {controller} is the controller's name.
    [HttpGet("~/{controller}/{action}/{id:int}")]
    public IActionResult Show(int id) => Ok(id);
}
