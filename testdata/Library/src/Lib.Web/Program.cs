using Lib.Web;

var app = WebApplication.CreateBuilder(args).Build();
app.UseMiddleware<TimingMiddleware>();
app.MapGet("/feed", () => new Feed { Total = Shared.Guard.NotEmpty("feed").Length });
app.Run();
