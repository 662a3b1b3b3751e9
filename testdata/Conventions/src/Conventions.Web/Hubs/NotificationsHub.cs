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
