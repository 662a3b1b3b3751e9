using Foundatio.Mediator;  // not restored: IMediator and IMessageBus do not bind
using Partial.Web;
using Partial.Web.Orders;

var builder = WebApplication.CreateBuilder(args);
builder.Configuration.AddYamlFile("appsettings.yml", optional: true);
builder.Services.AddSingleton<ApmConfig>();
var app = builder.Build();

app.MapGet("/orders/{id}", async (int id, IMediator mediator) => await mediator.InvokeAsync<string>(new GetOrder(id)));
app.MapDelete("/orders/{id}", (int id, IMessageBus bus) => bus.InvokeAsync(new CancelOrder(id)));
app.MapPost("/orders", (IMediator mediator) => mediator.PublishAsync(new OrderPlaced(1)));
app.MapGet("/login", (LoginService login) => login.LoginAsync("code"));

app.Run();
