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

        // Reaches TodoStore.Remove through another member: both routes are tested for Remove.
        group.MapPut("/{id}/archive", (int id, TodoStore store) =>
        {
            var archived = TodoArchive.Archive(store, id);
            return archived;
        });

        return group;
    }
}

public static class TodoArchive
{
    public static IResult Archive(TodoStore store, int id) => store.Remove(id) ? Results.Ok() : Results.NotFound();
}
