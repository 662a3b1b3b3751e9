namespace Flow.Core.ServiceCalls;

// dapr-traffic-control's FineCollectionService: a client of another app of the solution whose base address is that
// app (through the Dapr sidecar, `DaprClient.CreateInvokeHttpClient("vehicleregistrationservice")`) calls a relative
// path its controller serves; the graph has no call edge between the two apps.
public sealed class InvoiceProxy(HttpClient http)
{
    public Task<HttpResponseMessage> Pay(int id) => http.PostAsync($"api/invoices/{id}/pay", null);

    // Dapr's own invoke URL on the sidecar: the route is the path after `/method/`.
    public Task<HttpResponseMessage> PayThroughSidecar(int id) =>
        http.PostAsync($"http://localhost:3500/v1.0/invoke/web/method/api/invoices/{id}/pay", null);

    // Another host's API: no route of the solution, whatever its path.
    public Task<string> Rates() => http.GetStringAsync("https://rates.example.com/api/authors/1");

    // A GET on a path the solution serves only for POST: no route.
    public Task<string> Peek(int id) => http.GetStringAsync($"api/invoices/{id}/pay");
}
