using Microsoft.Extensions.Configuration;

var config = new ConfigurationBuilder().AddJsonFile("appsettings.json").Build();
Console.WriteLine(config["Other:Name"] + config["Other:Region"]);  // Other:Region: set by docker-compose
// `"Caching": {}` in appsettings.json: an empty section is a defined one.
Console.WriteLine(config.GetSection("Caching").Exists());
// Blogifier's `var section = configuration.GetSection("Blogifier")`, read only for two children: Store:Salt, which
// nothing reads, is unused (the section read used every key under it).
var store = config.GetSection("Store");
Console.WriteLine(store.GetValue<string>("Provider") + store["Path"]);
// Blogifier's StorageMinioProvider: a section handed to a constructor, read there by relative keys.
Console.WriteLine(new BlobClient(config.GetSection("Blob")).Bucket);

/// <summary>Reads `Bucket` under whatever section it is handed: not a root key `Bucket`.</summary>
sealed class BlobClient(IConfigurationSection section)
{
    public string? Bucket { get; } = section["Bucket"];
}
