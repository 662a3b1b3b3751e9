namespace Flow.Web;

/// <summary>Middleware added by a helper Program calls with the app (eShopOnContainers' `ConfigureAuth(app)`):
/// its steps run where it is called.</summary>
public static class Pipeline
{
    public static void ConfigureAuth(IApplicationBuilder app)
    {
        app.UseAuthentication();
        app.UseAuthorization();
    }
}
