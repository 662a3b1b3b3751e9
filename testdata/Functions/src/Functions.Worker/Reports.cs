using Microsoft.Azure.Functions.Worker;
using Microsoft.Azure.Functions.Worker.Http;

namespace Functions.Worker;

public class Reports
{
    // No methods listed: any verb, at /api/reports/daily (no host.json: the host's default prefix).
    [Function("DailyReport")]
    public string Daily([HttpTrigger(AuthorizationLevel.Anonymous, Route = "reports/daily")] HttpRequestData req) => "daily";

    [Function("Cleanup")]
    public void Cleanup([TimerTrigger("0 0 3 * * *")] TimerInfo timer) { }

    // `[Function]` with no trigger parameter is no function the host runs.
    [Function("Helper")]
    public string Helper(string text) => text;
}

// The isolated worker's bindings name settings local.settings.json defines: a timer's schedule `%CleanupSchedule%`,
// an output binding on the method (QueueOutput's extension is not referenced: unbound, it still counts).
public class Maintenance
{
    [Function("Nightly")]
    [QueueOutput("%Reports__Queue%", Connection = "Bus")]
    public string Nightly([TimerTrigger("%CleanupSchedule%")] TimerInfo timer) => "done";
}
