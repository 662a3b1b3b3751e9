using Microsoft.Extensions.Configuration;

var config = new ConfigurationBuilder().AddJsonFile("appsettings.json").Build();
Console.WriteLine(config["Other:Name"] + config["Other:Region"]);  // Other:Region: set by docker-compose
// `"Caching": {}` in appsettings.json: an empty section is a defined one.
Console.WriteLine(config.GetSection("Caching").Exists());
// Blogifier's `var section = configuration.GetSection("Blogifier")`, read only for two children: Store:Salt, which
// nothing reads, is unused (the section read used every key under it).
var store = config.GetSection("Store");
Console.WriteLine(store.GetValue<string>("Provider") + store["Path"]);
