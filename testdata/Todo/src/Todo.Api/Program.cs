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
app.Run();
