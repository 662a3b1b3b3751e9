using Flow.Core;
using Flow.Data;
using Flow.Web;

var builder = WebApplication.CreateBuilder(args); builder.Configuration.AddTableSettings();
builder.Services.AddScoped(typeof(IRepository<>), typeof(EfRepository<>));
builder.Services.AddScoped<ICatalogService, CatalogService>();
builder.Services.AddHttpClient<IPricingClient, PricingClient>(client => client.BaseAddress = new Uri("http://pricing"));
builder.Services.AddRazorPages();
builder.Services.AddControllersWithViews();
builder.Services.AddScoped(typeof(IPipelineBehavior<,>), typeof(ValidationBehavior<,>));

var app = builder.Build();
if (app.Environment.IsDevelopment())
    app.UseDeveloperExceptionPage();
else
    app.UseExceptionHandler("/error");
Pipeline.ConfigureAuth(app);
app.UseStaticFiles();
app.AddIdentityService();
app.MapGet("/catalog", CatalogEndpoints.List);
app.MapPost("/orders", OrderEndpoints.Create);
app.MapGet("/prices/{id:int}", PriceEndpoints.Quote);
app.MapRazorPages();
app.MapControllerRoute(name: "default", pattern: "{controller=Home}/{action=Index}");
app.MapDynamicControllerRoute<SlugTransformer>("/{**slug}");
app.Logger.LogInformation("Database {Name}", app.Configuration.GetConnectionString("Flow"));
app.Run();
