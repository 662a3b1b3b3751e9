using Todo.Api;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<TodoStore>();

var app = builder.Build();
app.MapTodos();
app.Run();
