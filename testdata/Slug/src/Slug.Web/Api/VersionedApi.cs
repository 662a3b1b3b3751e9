using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Routing;

namespace Slug.Web.Api;

// Sonarr's VersionedApiControllerAttribute: a class attribute of the app's own whose constructor builds the template.
[AttributeUsage(AttributeTargets.Class)]
public class VersionedApiAttribute : Attribute, IRouteTemplateProvider
{
    public VersionedApiAttribute(int version, string resource = "[controller]")
    {
        Version = version;
        Template = $"api/v{Version}/{resource}";
    }

    public string Template { get; }

    public int Version { get; }

    public int? Order => 2;

    public string? Name { get; set; }
}

public sealed class V3Attribute : VersionedApiAttribute
{
    public V3Attribute(string resource = "[controller]")
        : base(3, resource)
    {
    }
}

// Sonarr's RestDeleteByIdAttribute: one of MVC's HTTP attributes, its template handed to the base constructor.
[AttributeUsage(AttributeTargets.Method)]
public sealed class DeleteByIdAttribute : HttpDeleteAttribute
{
    public DeleteByIdAttribute()
        : base("{id:int}")
    {
    }
}

// Sonarr's RestGetByIdAttribute: both provider interfaces, their values in properties.
[AttributeUsage(AttributeTargets.Method)]
public sealed class GetByIdAttribute : Attribute, IActionHttpMethodProvider, IRouteTemplateProvider
{
    public IEnumerable<string> HttpMethods => new[] { "GET" };

    public string Template => "{id:int}";

    public int? Order => 0;

    public string? Name { get; }
}

[V3]
public sealed class SeriesController : ControllerBase
{
    [HttpGet]
    public IActionResult All() => Ok();

    [GetById]
    public IActionResult One(int id) => Ok(id);

    [DeleteById]
    public IActionResult Remove(int id) => Ok(id);

    [HttpGet("since")]
    public IActionResult Since() => Ok();
}

[V3("calendar/feed")]
public sealed class FeedController : ControllerBase
{
    [HttpGet("Sonarr.ics")]
    public IActionResult Ics() => Ok();
}

// Sonarr's ProviderControllerBase<...>: an abstract base is no controller; its actions are each derived controller's.
public abstract class ProviderControllerBase<TResource> : ControllerBase
{
    [HttpGet]
    public IActionResult GetAll() => Ok();

    [HttpPost("test")]
    public IActionResult Test() => Ok();

    [NonAction]
    public IActionResult Helper() => Ok();

    [HttpGet("schema")]
    public virtual IActionResult Schema() => Ok();

    [HttpGet("{id:int}")]
    public virtual IActionResult Get(int id) => Ok(id);
}

[V3]
public sealed class IndexerController : ProviderControllerBase<int>
{
    // Sonarr's SeriesController: an override marked [NonAction] hides the base's action: no route.
    [NonAction]
    public override IActionResult Get(int id) => Ok(-id);
}

[V3]
public sealed class NotificationController : ProviderControllerBase<string>
{
    // Hides the base's: the route is this method's.
    [HttpPost("test")]
    public new IActionResult Test() => Ok("own");

    // No attribute of its own: the overridden action's [HttpGet("schema")] applies (MVC reads them inherited).
    public override IActionResult Schema() => Ok("own");
}
