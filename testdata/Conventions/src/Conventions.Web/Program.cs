using Conventions.Web.Data;
using Conventions.Web.Data.Accounts;
using Conventions.Web.Hubs;
using FluentValidation;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSignalR();
builder.Services.AddRazorPages();
builder.Services.AddDbContext<ShopContext>();
builder.Services.AddShopData();
builder.Services.AddSqlite<ShopContext>("Data Source=shop.db");
builder.Services.AddValidatorsFromAssemblyContaining<Program>();
builder.Services.AddSubscription<Product, ProductAddedHandler>();
builder.Services.AddAccounts();

var app = builder.Build();
app.MapHub<NotificationsHub>("/hubs/notifications");
app.MapHub<PricesHub>("/hubs/prices");
app.MapRazorPages();
app.MapAccounts();
app.Run();
