using Lib.Web;

var app = WebApplication.CreateBuilder(args).Build();
app.UseMiddleware<TimingMiddleware>();
app.MapGet("/feed", () => new Feed { Total = Shared.Guard.NotEmpty("feed").Length });
new Lib.Redis.RedisOptions().UseRedis(o => o.Connection = Lib.Hosting.HostDefaults.Route());
app.Run();
