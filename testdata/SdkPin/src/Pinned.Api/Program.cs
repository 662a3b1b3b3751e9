using Pinned.Api;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<IClock, SystemClock>();

var app = builder.Build();
var todos = app.MapGroup("/todos");
todos.MapGet("/", (IClock clock) => Results.Ok(clock.Today()));
todos.MapGet("/{id:int}", (int id) => Results.Ok(id));

app.Run();
