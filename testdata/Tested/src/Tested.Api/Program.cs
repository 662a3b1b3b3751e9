using Microsoft.AspNetCore.Builder;
using Tested.Api;

var app = WebApplication.Create(args);
app.MapGet("/api/orders/{id:int}", OrderEndpoints.Quote);
app.MapGet("/api/health", OrderEndpoints.Health);
var factor = Tested.Core.PricingSettings.Factor(app.Configuration);
app.Run();
