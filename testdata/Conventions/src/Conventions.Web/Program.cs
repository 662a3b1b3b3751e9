using Conventions.Web.Data;
using Conventions.Web.Hubs;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSignalR();
builder.Services.AddRazorPages();
builder.Services.AddDbContext<ShopContext>();
builder.Services.AddShopData();

var app = builder.Build();
app.MapHub<NotificationsHub>("/hubs/notifications");
app.MapHub<PricesHub>("/hubs/prices");
app.MapRazorPages();
app.Run();
