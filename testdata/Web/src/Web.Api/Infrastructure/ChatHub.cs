using Microsoft.AspNetCore.SignalR;

namespace Web.Api.Infrastructure;

public sealed class ChatHub : Hub
{
    public Task Send(string message) => Clients.All.SendAsync("message", message);
}
