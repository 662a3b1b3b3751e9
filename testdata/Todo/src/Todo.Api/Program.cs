using Todo.Api;
using Todo.Defaults;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<TodoStore>();

var app = builder.Build();
app.MapTodos();
app.MapDefaultEndpoints();
app.AddApplicationServices();
app.Run();
