using Microsoft.AspNetCore.Mvc.ApplicationModels;
using Slug.Web;
using Slug.Web.Controllers;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddRouting(options =>
{
    options.ConstraintMap["slugify"] = typeof(SlugifyParameterTransformer);
    options.ConstraintMap["shout"] = typeof(ShoutTransformer);
});
// jellyfin's AddSingleton<IJellyfinDatabaseProvider>(providerFactory!): a factory held in a variable.
Func<IServiceProvider, IClock> makeClock = _ => new SystemClock();
builder.Services.AddSingleton<IClock>(makeClock);
builder.Services.AddControllersWithViews(options =>
    options.Conventions.Add(new RouteTokenTransformerConvention(new SlugifyParameterTransformer())));

var app = builder.Build();
app.MapControllerRoute("default", "{controller:slugify=Home}/{action:slugify=Index}/{id?}");
app.MapControllerRoute("loud", "loud/{controller:shout}/{action}");
// grandnode's endpoint providers: an area route (its area name a default and a constraint), and fixed patterns
// whose defaults name the one action they reach.
app.MapAreaControllerRoute("admin", Areas.Admin, $"{Areas.Admin}/{{controller=Dashboard}}/{{action=Index}}/{{id?}}");
app.MapControllerRoute("signin", "signin/", new { controller = "Account", action = "SignIn" });
app.MapControllerRoute("admin-home", "admin/", defaults: new { controller = "Dashboard", action = "Index", area = Areas.Admin });
// A controller named at run time: which actions this reaches is unknown, so it is listed as written.
app.MapControllerRoute("start", "start/", new { controller = Environment.GetEnvironmentVariable("START"), action = "Index" });
StoreRoutes.Register(app, Environment.GetEnvironmentVariable("LANGUAGE_PREFIX") ?? "");
// Sonarr's `/status` served twice: one template, two handlers (a trace asks for the handler).
app.MapGet("/health", () => "ok");
app.Run();
