using Microsoft.AspNetCore.Mvc;

namespace Flow.Web.Controllers;

// No attribute on this part, nor `public`: both come from Stores.cs.
partial class StoresController
{
    [HttpGet("{storeId}/rates")]
    public IActionResult Rates(string storeId) => Ok(storeId);

    // No verb attribute: served at the controller's route, /stores, for any method; never a conventional route.
    public IActionResult Export(string storeId) => Ok(storeId);
}
