using Web.NoPackages;
using Web.NoPackages.Grpc;

var builder = WebApplication.CreateBuilder(args);

// Microsoft.Extensions.Http binds (shared framework); the resilience handlers do not.
builder.Services.AddHttpClient("billing").AddStandardResilienceHandler();
builder.Services.AddHttpClient("ledger").AddResilienceHandler("ledger-pipeline", pipeline => pipeline.AddTimeout(TimeSpan.FromSeconds(5)));
builder.Services.AddDbContext<LegacyDbContext>();
builder.Services.AddScoped<InvoiceRepository>();
builder.Services.AddMediatR(cfg => cfg.RegisterServicesFromAssemblyContaining<InvoiceRepository>());
builder.Services.AddSingleton(sp => new ServiceBusClient("Endpoint=sb://bus")); // its package is missing: T from `new`
var app = builder.Build();
// The Swagger package is not referenced: the call does not bind, the receiver does.
app.UseSwagger();
app.UseHttpsRedirection();
app.MapGet("/invoices/{id:int}", (int id, InvoiceRepository invoices) => invoices.Find(id));
app.MapGrpcService<BasketService>();
app.MapForwarder("/legacy/{**rest}", "http://legacy.internal");
app.Run();
