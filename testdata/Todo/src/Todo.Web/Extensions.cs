// The same id as Todo.Api's `Extensions.AddApplicationServices`, another member: it reads no configuration.
public static class Extensions
{
    public static void AddApplicationServices(this WebApplication app)
    {
        _ = app.Environment.EnvironmentName;
    }
}
