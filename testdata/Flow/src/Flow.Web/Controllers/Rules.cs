using Microsoft.AspNetCore.Mvc;

namespace Flow.Web.Controllers;

// BTCPay's UIEmailRuleControllerBase: a concrete base whose public methods are actions of each controller deriving
// from it, at that controller's route; itself a controller (it derives from Controller), reached conventionally.
public class RuleControllerBase : Controller
{
    public IActionResult EditCore(long ruleId) => Ok(ruleId);

    [NonAction]
    public IActionResult Render(long ruleId) => Ok(ruleId);

    protected IActionResult Back() => Ok();
}

[Route("server/rules")]
public class ServerRulesController : RuleControllerBase
{
    [HttpGet("")]
    public IActionResult Overview() => Ok();

    // Not actions: static, generic, IDisposable's Dispose.
    public static IActionResult Shared() => new OkResult();

    public IActionResult Typed<T>() => Ok(typeof(T).Name);

    public new void Dispose() => base.Dispose();
}

// BTCPay's NFCController: [ApiController]-free, one verb-less action under the class's [Route].
[Route("plugins/nfc")]
public class NfcController : Controller
{
    public IActionResult Submit([FromBody] string body) => Ok(body);
}
