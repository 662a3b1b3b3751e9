using Microsoft.Extensions.Configuration;

var config = new ConfigurationBuilder().AddJsonFile("appsettings.json").Build();
Console.WriteLine(config["Other:Name"]);
// `"Caching": {}` in appsettings.json: an empty section is a defined one.
Console.WriteLine(config.GetSection("Caching").Exists());
