using Autofac;
using Container.App;

var builder = new ContainerBuilder();
builder.RegisterModule<InfrastructureModule>();
builder.RegisterModule(new MessagingModule("orders"));
builder.RegisterInstance(new CardPayments()).Keyed<IPayments>("card");
builder.RegisterType(typeof(OrderPlacedHandler)).AsSelf();

using var cancel = new CancellationTokenSource();
// Not a registration: CancellationToken.Register shares the name.
cancel.Token.Register(() => Console.WriteLine("cancelled"));

using var container = builder.Build();
container.Resolve<IClock>().Now();
