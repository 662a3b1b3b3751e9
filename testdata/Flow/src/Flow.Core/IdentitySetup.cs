using Microsoft.AspNetCore.Builder;

namespace Flow.Core;

/// <summary>Middleware a library adds for the app that calls it (modular-monolith's UserAccess module:
/// `app.AddIdentityService()` in the API's Startup.Configure): its steps run where the app calls it.</summary>
public static class IdentitySetup
{
    public static IApplicationBuilder AddIdentityService(this IApplicationBuilder app)
    {
        app.UseCors();
        app.UseRequestLocalization();
        return app;
    }
}
