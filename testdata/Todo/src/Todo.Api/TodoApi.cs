namespace Todo.Api;

public static class TodoApi
{
    public static RouteGroupBuilder MapTodos(this IEndpointRouteBuilder routes)
    {
        var group = routes.MapGroup("/todos");

        group.MapGet("/", (TodoStore store) => store.All().Select(t => t.AsItem()));

        group.MapGet("/{id}", (int id, TodoStore store) =>
            store.Find(id) is { } todo ? Results.Ok(todo.AsItem()) : Results.NotFound());

        group.MapDelete("/{id}", (int id, TodoStore store) =>
        {
            var removed = store.Remove(id);
            return removed ? Results.Ok() : Results.NotFound();
        });

        return group;
    }
}
