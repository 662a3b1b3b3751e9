using JasperFx.Events;
using Marten;
using Marten.Events.Aggregation;
using Marten.Events.Projections;
using Wolverine.Http;

namespace Critter.Api;

public record TicketOpened(Guid TicketId, string Title);
public record TicketClosed(Guid TicketId);

public record OpenTicket(string Title);

public record TicketHistory(Guid Id, Guid TicketId, string Description);

public record TicketDetails(Guid Id, string Title, bool Closed)
{
    public static TicketDetails Create(TicketOpened opened) => new(opened.TicketId, opened.Title, false);

    public TicketDetails Apply(TicketClosed closed) => this with { Closed = true };
}

public static class TicketEndpoints
{
    [WolverinePost("/api/tickets")]
    public static TicketOpened Open(OpenTicket command) => new(Guid.NewGuid(), command.Title);

    [WolverineGet("api/tickets/{ticketId:guid}")]
    public static Task<TicketDetails?> Get(Guid ticketId, IQuerySession session) =>
        session.LoadAsync<TicketDetails>(ticketId);

    [WolverineDelete("/api/tickets/{ticketId:guid}/")]
    public static TicketClosed Close(Guid ticketId) => new(ticketId);
}

public class TicketHistoryTransformation : EventProjection
{
    public TicketHistory Transform(IEvent<TicketOpened> input) =>
        new(Guid.NewGuid(), input.Data.TicketId, $"Opened '{input.Data.Title}'");

    public void Project(TicketClosed closed, IDocumentOperations operations) =>
        operations.Store(new TicketHistory(Guid.NewGuid(), closed.TicketId, "Closed"));

    public string Describe(TicketClosed closed) => $"Closed {closed.TicketId}";
}

public class TicketDetailsProjection : SingleStreamProjection<TicketDetails, Guid>
{
    public static TicketDetails Create(TicketOpened opened) => new(opened.TicketId, opened.Title, false);

    public TicketDetails Apply(TicketClosed closed, TicketDetails current) => current with { Closed = true };
}

// Found by Wolverine by convention (a *Handler class, a Handle method taking the message), static or not; nothing
// in the solution sends TicketClosed through a bus: Wolverine cascades it from the DELETE endpoint's return value.
public static class TicketClosedHandler
{
    public static void Handle(TicketClosed closed, ILogger<TicketClosed> logger) =>
        logger.LogInformation("Ticket {TicketId} closed", closed.TicketId);
}

public class TicketAuditConsumer
{
    public Task ConsumeAsync(TicketOpened opened) => Task.CompletedTask;

    public void Handle(TicketHistory history) { }
}

public record ReopenTicket(Guid TicketId);

public static class ReopenTicketHandler
{
    public static TicketOpened Handle(ReopenTicket command) => new(command.TicketId, "Reopened");
}

public static class TicketReopening
{
    [WolverinePost("/api/tickets/{ticketId:guid}/reopen")]
    public static Task Reopen(Guid ticketId, Wolverine.IMessageBus bus) => bus.InvokeAsync(new ReopenTicket(ticketId));
}

// A positional record's property holds the enum: a client sends its members by name in JSON.
public enum TicketPriority { Low, High }

public record TicketPrioritised(Guid TicketId, TicketPriority Priority);

public static class TicketPrioritisedHandler
{
    public static void Handle(TicketPrioritised prioritised) { }
}
