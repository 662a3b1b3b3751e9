using Todo.Api;
using Scalar.AspNetCore;
using Todo.Defaults;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<TodoStore>();
builder.Services.AddOpenApi();

var app = builder.Build();
app.MapTodos();
app.MapDefaultEndpoints();
app.AddApplicationServices();
app.UseAuth();
// TodoApi: a connection string with a default of its own is still set nowhere (`defaulted`).
var todos = app.Configuration.GetConnectionString("Todos") ?? "Data Source=todos.db";
// A fallback that throws is no default: the key is required.
var archive = app.Configuration["Archive:Path"] ?? throw new InvalidOperationException("Archive:Path is required");
app.UseAudit();
// TodoApi: the OpenAPI document and Scalar's reference page are endpoints the packages map.
app.MapOpenApi();
app.MapScalarApiReference();
app.ScopeCount();
app.RequireTenant();
// eShop's AddAIServices: a key whose presence is tested before use is optional (nothing sets these two here).
var ai = !string.IsNullOrWhiteSpace(app.Configuration.GetConnectionString("ai"));
var cacheUrl = app.Configuration["Cache:Url"];
if (cacheUrl is null) app.Logger.LogInformation("no cache");
// eShopOnWeb's UseOnlyInMemoryDatabase: read again where the first read was tested present.
if (app.Configuration["Proxy:Url"] != null) app.Logger.LogInformation(app.Configuration["Proxy:Url"]!);
// A presence test that throws requires the key.
var license = app.Configuration["License:Key"];
if (string.IsNullOrEmpty(license)) throw new InvalidOperationException("License:Key is required");
// A route whose lambda calls an id two projects declare: its trace goes on into Todo.Api's declaration only.
app.MapGet("/setup", () => app.AddApplicationServices());
app.Run();
