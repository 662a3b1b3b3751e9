using Microsoft.Extensions.Configuration;

var config = new ConfigurationBuilder().AddJsonFile("appsettings.json").Build();
Console.WriteLine(config["Tool:Mode"]);
// Set only by docker-compose.override.yml (EventBus__Host): defined for Flow.Tool all the same.
Console.WriteLine(config["EventBus:Host"]);
