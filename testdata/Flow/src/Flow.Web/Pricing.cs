namespace Flow.Web;

/// <summary>A typed HttpClient: `AddHttpClient&lt;IPricingClient, PricingClient&gt;()` registers PricingClient as
/// the IPricingClient a handler receives (as eShopOnContainers' WebMVC registers its services).</summary>
public interface IPricingClient
{
    Task<decimal> QuoteAsync(int itemId);
}

public sealed class PricingClient(HttpClient http) : IPricingClient
{
    public async Task<decimal> QuoteAsync(int itemId) => decimal.Parse(await http.GetStringAsync($"/prices/{itemId}"));
}

/// <summary>A second implementation DI never registers: the trace must not reach it.</summary>
public sealed class FixedPricingClient : IPricingClient
{
    public Task<decimal> QuoteAsync(int itemId) => Task.FromResult(1m);
}

public static class PriceEndpoints
{
    public static Task<decimal> Quote(int id, IPricingClient pricing) => pricing.QuoteAsync(id);
}
