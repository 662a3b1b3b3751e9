using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Azure.WebJobs;
using Microsoft.Azure.WebJobs.Extensions.Http;

namespace Functions.Orders;

public static class OrderFunctions
{
    // No Route: served at the function's name, under host.json's prefix: GET and POST /v1/ListOrders.
    [FunctionName("ListOrders")]
    public static IActionResult List([HttpTrigger(AuthorizationLevel.Anonymous, "get", "post", Route = null)] HttpRequest req) =>
        new OkObjectResult(Totals.Describe());

    [FunctionName("GetOrder")]
    public static IActionResult Get([HttpTrigger(AuthorizationLevel.Function, "get", Route = "orders/{id}")] HttpRequest req, string id) =>
        new OkObjectResult(id);

    // A queue's messages run it: no route, an entry point all the same. QueueTrigger is in the storage extension,
    // which this project does not reference (as a restore that left it out): unbound, the function still counts.
    [FunctionName("ShipOrder")]
    public static void Ship([QueueTrigger("orders-to-ship")] string message) => new Shipping(new EnvironmentSettings()).Send();
}

public static class Totals
{
    public static string Describe() => "totals";

    // Nothing calls it: unused.
    public static string Unreferenced() => "none";
}

// Bindings name app settings: `%AuditQueue%` in a string, `Connection = "AuditStorage"` (the runtime also tries
// ConnectionStrings:AuditStorage and AzureWebJobsAuditStorage), an output binding on the return value.
public static class AuditFunctions
{
    [FunctionName("Audit")]
    [return: Queue("%AuditLog%")]
    public static string Audit([QueueTrigger("%AuditQueue%", Connection = "AuditStorage")] string message) => message;
}
