using Alba;
using Critter.Api;
using Xunit;

namespace Critter.Tests;

public class TicketTests
{
    private readonly IAlbaHost _host = null!;

    [Fact]
    public Task Opening_a_ticket() =>
        _host.Scenario(x => x.Post.Json(new OpenTicket("Printer")).ToUrl("/api/tickets"));

    [Fact]
    public Task Reading_a_ticket() => ReadTicket(_host, Guid.Empty);

    [Fact]
    public Task Closing_a_ticket() =>
        _host.Scenario(x =>
        {
            x.Delete.Url($"/api/tickets/{Guid.Empty}");
            x.StatusCodeShouldBeOk();
        });

    private static Task ReadTicket(IAlbaHost host, Guid ticketId) =>
        host.Scenario(x => x.Get.Url($"/api/tickets/{ticketId}"));
}
