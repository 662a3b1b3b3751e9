using Critter.Api;
using Marten;
using JasperFx.Events.Projections;
using Wolverine;
using Wolverine.Http;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddMarten(options =>
{
    options.Connection("Host=localhost");
    options.Projections.Add<TicketHistoryTransformation>(ProjectionLifecycle.Inline);
    options.Projections.Add<TicketDetailsProjection>(ProjectionLifecycle.Inline);
});
builder.Host.UseWolverine();
builder.Services.AddWolverineHttp();
builder.Services.AddCors().Configure<RouteOptions>(o => o.LowercaseUrls = true).AddSignalR();

var app = builder.Build();
app.MapWolverineEndpoints();
app.Run();
