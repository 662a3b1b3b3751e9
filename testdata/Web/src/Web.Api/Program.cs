using Microsoft.Extensions.DependencyInjection.Extensions;
using Web.Api.Data;
using Web.Api.Endpoints;
using Web.Api.Infrastructure;
using Web.Api.Services;

var builder = WebApplication.CreateBuilder(args);
var config = builder.Configuration;

// Configuration: indexer, GetValue, GetSection chains, connection string, options binding.
var connectionString = config.GetConnectionString("Main");
var useCache = config.GetValue<bool>("Features:UseCache");
var pageSize = config.GetValue<int>("Features:MaxPageSize", 50);
var interval = config.GetSection("Jobs").GetSection("Cleanup")["IntervalSeconds"];
var region = config["Shipping:Region"];
builder.Services.Configure<PaymentOptions>(config.GetSection("Payments"));
builder.Services.AddOptions<ShippingOptions>().BindConfiguration("Shipping");
var audit = new AuditOptions();
config.GetSection("Audit").Bind(audit);

// Dependency injection in every form.
builder.Services.AddDbContext<ShopDbContext>(o => o.EnableDetailedErrors());
builder.Services.AddScoped<IOrderStore, SqlOrderStore>();
builder.Services.AddScoped<IOrderService, OrderService>();
builder.Services.AddTransient<PriceCalculator>();
builder.Services.AddSingleton(typeof(IClock), typeof(SystemClock));
builder.Services.AddSingleton<IAuditSink>(sp => new FileAuditSink(audit.Path));
builder.Services.AddSingleton<ResiliencePolicies>(new ResiliencePolicies());
builder.Services.TryAddScoped<INotifier, EmailNotifier>();
builder.Services.AddKeyedSingleton<INotifier, SmsNotifier>("sms");
builder.Services.AddControllers();
builder.Services.AddHealthChecks();
builder.Services.AddSignalR();

var app = builder.Build();

// Middleware pipeline, in order.
app.UseExceptionHandler("/error");
app.UseMiddleware<RequestTimingMiddleware>();
app.UseRouting();
app.UseAuthentication();
app.UseAuthorization();
app.Use(async (context, next) =>
{
    context.Response.Headers["X-Region"] = region ?? "none";
    await next(context);
});
app.UseRequestTiming();
app.MapWhen(ctx => ctx.Request.Query.ContainsKey("ping"), branch => branch.Run(ctx => ctx.Response.WriteAsync("pong")));
app.Map("/health", HealthBranch.Configure);

// Endpoints: controllers, conventional route and minimal APIs.
app.MapControllers();
app.MapControllerRoute(name: "default", pattern: "{controller=Home}/{action=Index}/{id?}");
app.MapGet("/ping", () => "pong");
var api = app.MapGroup("/api");
var orders = api.MapGroup("/orders");
orders.MapGet("/{id:int}", OrderEndpoints.GetById);
orders.MapPost("/", OrderEndpoints.Create);
orders.MapPut("/{id:int}", (int id) => Results.NoContent());
orders.MapDelete("/{id:int}", (int id) => Results.NoContent());
orders.MapPatch("/{id:int}/status", (int id) => Results.NoContent());
api.MapGroup("/reports").RequireAuthorization().MapMethods("/daily", new[] { "GET", "HEAD" }, () => "report");
api.MapGroup("/catalog").MapCatalog();
CatalogEndpoints.MapCatalogAdmin(app.MapGroup("/admin"));
api.MapPromotions();
app.MapMethods("/check", [HttpMethods.Options], () => Results.Ok());
app.MapHealthChecks("/healthz");
app.MapHub<ChatHub>("/hubs/chat");
app.MapFallbackToFile("index.html");

app.Logger.LogInformation("Starting with cache {UseCache}, page size {PageSize}, interval {Interval}, database {Database}",
    useCache, pageSize, interval, connectionString);
app.Run();
