using Microsoft.AspNetCore.Builder;

namespace Todo.Defaults;

public static class Hosting
{
    public static WebApplication MapDefaultEndpoints(this WebApplication app) => app;
}
