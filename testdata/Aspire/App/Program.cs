using Aspire.Bus;

var builder = WebApplication.CreateBuilder(args);
builder.AddBus("eventbus").Subscribe("orders");
builder.AddNpgsqlDbContext<CatalogContext>("catalogdb");
var identity = builder.Configuration["Identity:Url"];
var callback = builder.Configuration["CallBackUrl"];
var missing = builder.Configuration["Payments:Endpoint"];
builder.Build().Run();

/// <summary>Stands for an EF Core context (the Npgsql integration's package is not restored here).</summary>
public sealed class CatalogContext
{
}
