using Microsoft.AspNetCore.Mvc;

namespace Flow.Web.Controllers;

// BTCPay's UIStoresController: the class-level [Route] is on this part only; the actions of Stores.Rates.cs are
// under it too (a partial class's attributes are those of all its parts).
[Route("stores")]
public partial class StoresController : Controller
{
    [HttpGet("{storeId}/index")]
    public IActionResult Index(string storeId) => Ok(storeId);
}
