using Microsoft.AspNetCore.Mvc.ApplicationModels;
using Slug.Web;

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
app.Run();
