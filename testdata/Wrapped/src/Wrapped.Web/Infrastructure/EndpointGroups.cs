using System.Reflection;

namespace Wrapped.Web.Infrastructure;

public interface IEndpointGroup
{
    static abstract void Map(RouteGroupBuilder groupBuilder);
}

public static class EndpointGroups
{
    /// <summary>Every IEndpointGroup mapped on `/api/{ClassName}`, found by reflection: no call in the
    /// solution hands a group to their Map methods.</summary>
    public static WebApplication MapEndpoints(this WebApplication app, Assembly assembly)
    {
        foreach (var type in assembly.GetExportedTypes().Where(t => t.IsAssignableTo(typeof(IEndpointGroup))))
        {
            var group = app.MapGroup($"/api/{type.Name}");
            type.GetMethod(nameof(IEndpointGroup.Map))!.Invoke(null, [group]);
        }
        return app;
    }
}
