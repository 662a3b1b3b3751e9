using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;

namespace Todo.Defaults;

public static class Hosting
{
    /// <summary>Aspire's ServiceDefaults: a class library mapping its hosts' health checks (a library, not a web app).</summary>
    public static WebApplication MapDefaultEndpoints(this WebApplication app)
    {
        app.MapHealthChecks("/health");
        return app;
    }

    /// <summary>eShop's ServiceDefaults AddDefaultAuthentication: only Todo.Api calls it, so only Todo.Api can lack
    /// the key (Todo.Web references the library and never reads it).</summary>
    public static string? IdentityUrl(this WebApplication app) => app.Configuration["Identity:Url"];

    /// <summary>eShop's AddDefaultOpenApi: the section is tested before anything under it is read, so a host that
    /// configures no `Auth` lacks nothing (Todo.Web sets it, Todo.Api does not).</summary>
    public static WebApplication UseAuth(this WebApplication app)
    {
        var section = app.Configuration.GetSection("Auth");
        if (!section.Exists()) return app;
        var audience = section["Audience"];
        return app;
    }

    /// <summary>eShop's AddDefaultOpenApi: the section is read, and what is under it only where it exists.</summary>
    public static int ScopeCount(this WebApplication app)
    {
        var scopes = app.Configuration.GetSection("Scopes");
        return scopes.Exists() ? scopes.GetRequiredSection("Read").GetChildren().Count() : 0;
    }

    /// <summary>A test that throws when the section is missing makes it required: Todo.Api, which sets no Tenant, lacks
    /// it.</summary>
    public static WebApplication RequireTenant(this WebApplication app)
    {
        var tenant = app.Configuration.GetSection("Tenant");
        if (!tenant.Exists()) throw new InvalidOperationException("Tenant is required");
        return app;
    }

    /// <summary>The same guard with the section read inside the test itself.</summary>
    public static WebApplication UseAudit(this WebApplication app)
    {
        if (!app.Configuration.GetSection("Audit").Exists()) return app;
        var level = app.Configuration["Audit:Level"];
        return app;
    }
}
