using Carter;
using Microsoft.AspNetCore.Identity;
using Wrapped.Web.Endpoints;
using Wrapped.Web.Infrastructure;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddCarter().AddNotifiers();
var app = builder.Build();

// ASP.NET Core Identity's API endpoints: ten routes the framework maps, under the group.
app.MapGroup("/account").MapIdentityApi<IdentityUser>();

var api = app.MapGroup("/api");
api.MapGet(GetVersion);
Products.Map(api.MapGroup("/products"));
app.MapEndpoints(typeof(Program).Assembly);
app.MapCarter();

app.Run();

static string GetVersion() => "1.0";
