namespace Partial.Web.Orders;

public record GetOrder(int Id);
public record CancelOrder(int Id);
public record OrderPlaced(int Id);

// Foundatio.Mediator / Wolverine find handlers by convention: a *Handler (*Consumer) class, a Handle method taking
// the message. No interface names them.
public class OrderHandler
{
    public Task<string> Handle(GetOrder message) => Task.FromResult($"order {message.Id}");

    public Task HandleAsync(CancelOrder message, CancellationToken token) => Task.CompletedTask;
}

public class OrderPlacedConsumer
{
    public Task ConsumeAsync(OrderPlaced message) => Task.CompletedTask;
}

// Not named like a handler: no mediator calls it.
public class OrderAuditor
{
    public void Handle(GetOrder message) { }
}
