using Wrapped.Web.Infrastructure;

namespace Wrapped.Web.Endpoints;

/// <summary>Mapped by reflection (EndpointGroups.MapEndpoints): the group's prefix is not known here.</summary>
public class TodoItems : IEndpointGroup
{
    public static void Map(RouteGroupBuilder groupBuilder)
    {
        groupBuilder.MapPost(CreateTodoItem);
        groupBuilder.MapPut(UpdateTodoItem, "{id}");
    }

    public static int CreateTodoItem(string title) => title.Length;

    public static IResult UpdateTodoItem(int id, string title) => Results.NoContent();
}
