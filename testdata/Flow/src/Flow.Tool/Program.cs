using Microsoft.Extensions.Configuration;

var config = new ConfigurationBuilder().AddJsonFile("appsettings.json").AddJsonFile("appsettings.Development.json", optional: true).AddEnvironmentVariables().AddEnvironmentVariables("Tool_").Build();
Console.WriteLine(config["Tool:Mode"]);
// Set only by docker-compose.override.yml (EventBus__Host, the unprefixed provider reads it): defined for Flow.Tool.
Console.WriteLine(config["EventBus:Host"]);
// Set by docker-compose as Tool_Tool__Batch for the worker service: AddEnvironmentVariables("Tool_") drops the prefix.
Console.WriteLine(config["Tool:Batch"]);
// Defined for Flow.Tool only by Flow.Web's appsettings.Development.json, which its project file links in.
Console.WriteLine(config.GetConnectionString("Flow"));
// BTCPay's tests read their settings from the environment, not through IConfiguration: docker-compose.yml sets them.
Console.WriteLine(Environment.GetEnvironmentVariable("TESTS_POSTGRES"));
Console.WriteLine(Environment.GetEnvironmentVariable("Tests__Timeout", EnvironmentVariableTarget.Process) ?? "60");
// Set nowhere, and tested for: the code goes on without it.
if (Environment.GetEnvironmentVariable("TESTS_BROWSER") is null) Console.WriteLine("no browser");
// Set by the operating system and by GitHub's runners, not by the solution: nothing lacks them.
Console.WriteLine(Environment.GetEnvironmentVariable("HOME") ?? Environment.GetEnvironmentVariable("GITHUB_ACTIONS"));
// The tool's own services (Audit.cs), and the library's call with the tool's sink.
Flow.Tool.ToolServices.AddToolServices(new Microsoft.Extensions.DependencyInjection.ServiceCollection());
Flow.Core.AuditSetup.Record(new Flow.Tool.FileAuditSink(), new Flow.Core.JobClient().Enqueue("tool"));
