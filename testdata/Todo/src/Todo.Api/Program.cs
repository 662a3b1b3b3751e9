using Todo.Api;
using Todo.Defaults;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<TodoStore>();

var app = builder.Build();
app.MapTodos();
app.MapDefaultEndpoints();
app.AddApplicationServices();
app.UseAuth();
// TodoApi: a connection string with a default of its own lacks nothing.
var todos = app.Configuration.GetConnectionString("Todos") ?? "Data Source=todos.db";
// A fallback that throws is no default: the key is required.
var archive = app.Configuration["Archive:Path"] ?? throw new InvalidOperationException("Archive:Path is required");
app.UseAudit();
app.Run();
