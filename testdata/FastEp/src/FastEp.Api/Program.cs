using FastEndpoints;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddFastEndpoints();
builder.Services.AddCarter();

var app = builder.Build();
// Every endpoint's route starts with /api; a versioned endpoint's ends with ver{n}.
app.UseFastEndpoints(c =>
{
    c.Endpoints.RoutePrefix = "api";
    c.Versioning.Prefix = "ver";
});
app.MapCarter();
app.Run();
