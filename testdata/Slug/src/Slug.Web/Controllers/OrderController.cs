using Microsoft.AspNetCore.Mvc;

namespace Slug.Web.Controllers;

[Route("[controller]/[action]")]
public sealed class OrderController : Controller
{
    [HttpGet]
    public IActionResult MyOrders() => Ok();

    [HttpGet("{orderId:int}")]
    public IActionResult Detail(int orderId) => Ok(orderId);
}
