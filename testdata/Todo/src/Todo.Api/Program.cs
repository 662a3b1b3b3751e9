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
app.Run();
