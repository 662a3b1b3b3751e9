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

// eShopSupport: the AppHost reads Parameters:DbPassword itself (appsettings.json defines it; "Seed" is given a
// value); a Python app and an endpoint are reached by service discovery, not through ConnectionStrings.
var dbPassword = builder.AddParameter("DbPassword", secret: true);
var seed = builder.AddParameter("Seed", "42");
var inference = builder.AddPythonUvicornApp("inference", "../Inference", port: 8000);
app.WithReference(inference).WithReference(postgres.GetEndpoint("tcp"));
// Qdrant gives two connection strings: its own and its HTTP endpoint's (`vectors_http`).
var vectors = builder.AddQdrant("vectors");
app.WithReference(vectors);
// A resource of the AppHost's own, referenced through its own WithReference overload (eShopSupport's Ollama).
var chat = builder.AddModel("chat");
app.WithReference(chat);
builder.AddDashboard("dashboard").WithReference(app);
// aspire-samples' OrleansVoting: an Orleans cluster is no connection string; its providers' resources are.
var cache = builder.AddRedis("cache");
var cluster = builder.AddOrleans("cluster").WithClustering(cache).WithGrainStorage("votes", cache);
app.WithReference(cluster);
// aspire-samples' Metrics: Aspire sets the AppHost's own AppHost:* keys (the dashboard's OTLP API key).
var otlpKey = builder.Configuration["AppHost:OtlpApiKey"];
builder.AddService<Projects.App>("app-selfhosted");

builder.AddPayments(app);
builder.AddAssistant(app, AssistantTarget.Hosted);

builder.Build().Run();
