using Microsoft.AspNetCore.Mvc.ApplicationModels;
using Slug.Web;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddRouting(options =>
{
    options.ConstraintMap["slugify"] = typeof(SlugifyParameterTransformer);
    options.ConstraintMap["shout"] = typeof(ShoutTransformer);
});
builder.Services.AddControllersWithViews(options =>
    options.Conventions.Add(new RouteTokenTransformerConvention(new SlugifyParameterTransformer())));

var app = builder.Build();
app.MapControllerRoute("default", "{controller:slugify=Home}/{action:slugify=Index}/{id?}");
app.MapControllerRoute("loud", "loud/{controller:shout}/{action}");
app.Run();
