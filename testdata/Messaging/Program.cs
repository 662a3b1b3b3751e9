using MassTransit;
using Messaging.Consumers;
using Messaging.Contracts;
using Messaging.StateMachines;

var builder = WebApplication.CreateBuilder(args);

builder.Services.AddControllers();
builder.Services.AddMassTransit(x =>
{
    x.AddConsumersFromNamespaceContaining<SubmitOrderConsumer>();
    x.AddSagaStateMachine<OrderStateMachine, OrderState>().InMemoryRepository();
    x.AddRequestClient<SubmitOrder>();
    x.UsingInMemory((context, cfg) => cfg.ConfigureEndpoints(context));
});

var app = builder.Build();
app.MapControllers();
app.Run();
