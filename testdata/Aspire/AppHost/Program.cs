var builder = DistributedApplication.CreateBuilder(args);

var postgres = builder.AddPostgres("postgres");
var catalogDb = postgres.AddDatabase("catalogdb");
var bus = builder.AddRabbitMQ("eventbus");

var app = builder.AddProject<Projects.App>("app")
    .WithReference(catalogDb)
    .WaitFor(catalogDb);

app.WithReference(bus)
   .WithEnvironment("Identity__Url", "https://identity")
   .WithEnvironment("CallBackUrl", app.GetEndpoint("https"));

builder.AddPayments(app);

builder.Build().Run();
