using Todo.Defaults;

var builder = WebApplication.CreateBuilder(args);
var app = builder.Build();
app.MapDefaultEndpoints();
app.AddApplicationServices();
app.UseAuth();
app.UseAudit();
app.ScopeCount();
app.RequireTenant();
app.MapFallbackToController("Index", "Fallback");
app.Run();
