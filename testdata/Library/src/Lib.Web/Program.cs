using Lib.Web;

var app = WebApplication.CreateBuilder(args).Build();
app.UseMiddleware<TimingMiddleware>();
app.MapGet("/feed", () => new Feed { Total = 3 });
app.Run();
