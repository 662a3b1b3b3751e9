using Microsoft.AspNetCore.SignalR;

namespace Conventions.Web.Hubs;

/// <summary>Clients call Subscribe by name over the connection: nothing in C# does.</summary>
public sealed class NotificationsHub : Hub
{
    public Task Subscribe(string topic) => Groups.AddToGroupAsync(Context.ConnectionId, topic);

    // Not a hub method (not public): truly unused.
    internal static string Normalize(string topic) => topic.Trim().ToLowerInvariant();
}

public interface IPriceClient
{
    Task PriceChanged(int productId, decimal price);
}

/// <summary>A strongly typed hub (Hub&lt;T&gt;): Watch is called by clients, PriceChanged by Watch.</summary>
public sealed class PricesHub : Hub<IPriceClient>
{
    public Task Watch(int productId) => Clients.Caller.PriceChanged(productId, 9.5m);
}

/// <summary>RockPaperOrleans' LeaderboardObserver: the hub's client interface implemented on the server, forwarding to
/// the clients. `Clients.Caller.PriceChanged` (Watch) and `hub.Clients.All.PriceChanged` (its own) go over the wire to
/// the clients: neither runs it.</summary>
public sealed class PriceRelay(IHubContext<PricesHub, IPriceClient> hub) : IPriceClient
{
    public Task PriceChanged(int productId, decimal price) => hub.Clients.All.PriceChanged(productId, price);
}
