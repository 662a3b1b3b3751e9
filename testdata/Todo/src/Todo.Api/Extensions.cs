using Todo.Defaults;

// eShop's services each declare a global-namespace `Extensions.AddApplicationServices`: one id in several projects.
// Only this one reaches the library's IdentityUrl; Todo.Web's does not.
public static class Extensions
{
    public static void AddApplicationServices(this WebApplication app)
    {
        var identity = app.IdentityUrl();
    }
}
