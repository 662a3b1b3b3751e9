using FastEndpoints;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddFastEndpoints();

var app = builder.Build();
// Every endpoint's route starts with /api.
app.UseFastEndpoints(c => c.Endpoints.RoutePrefix = "api");
app.Run();
