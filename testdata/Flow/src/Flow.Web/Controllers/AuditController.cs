using Flow.Core;
using Microsoft.AspNetCore.Mvc;

namespace Flow.Web.Controllers;

/// <summary>CAP's sample controller publishing through ICapPublisher: Flow.Tool's sink never runs here, and Flow.Tool's
/// registration of a decorator of IJobFactory does not narrow the library's call in this app.</summary>
[ApiController]
[Route("audit")]
public sealed class AuditController(IAuditSink sink) : ControllerBase
{
    [HttpPost]
    public IActionResult Post()
    {
        sink.Write("posted");
        AuditSetup.Record(sink, "recorded");
        return Ok(new JobClient().Enqueue("audit"));
    }
}
