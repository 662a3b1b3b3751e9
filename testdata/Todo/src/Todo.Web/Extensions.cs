using Todo.Defaults;

// The same id as Todo.Api's `Extensions.AddApplicationServices`, another member: it reads no configuration, and what
// it calls is no callee of Todo.Api's.
public static class Extensions
{
    public static void AddApplicationServices(this WebApplication app)
    {
        _ = app.Environment.EnvironmentName;
        app.ScopeCount();
    }
}
