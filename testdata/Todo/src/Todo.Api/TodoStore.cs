namespace Todo.Api;

public sealed record Todo(int Id, string Title)
{
    public TodoItem AsItem() => new(Id, Title);
}

public sealed record TodoItem(int Id, string Title);

public sealed class TodoStore
{
    private readonly List<Todo> _todos = [new(1, "write tests")];

    public IEnumerable<Todo> All() => _todos;

    public Todo? Find(int id) => _todos.FirstOrDefault(t => t.Id == id);

    public bool Remove(int id) => _todos.RemoveAll(t => t.Id == id) > 0;
}
