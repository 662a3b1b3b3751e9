namespace Flow.Core;

// kgrzybek/modular-monolith-with-ddd's shape: the solution's own handler interface over the mediator's, and a
// generic executor that sends whatever command it is given, typed only as the interface. A trace through the
// executor reaches the handler of the command made on the way there.
public interface ICommand<TResult> : IRequest<TResult>;

public interface ICommandHandler<in TCommand, TResult> : IRequestHandler<TCommand, TResult>
    where TCommand : ICommand<TResult>;

public sealed record CancelOrderCommand(int OrderId) : ICommand<bool>;

public sealed class CancelOrderHandler : ICommandHandler<CancelOrderCommand, bool>
{
    public Task<bool> Handle(CancelOrderCommand command, CancellationToken cancellationToken) =>
        Task.FromResult(command.OrderId > 0);
}

public sealed class CommandsExecutor(IMediator mediator)
{
    public Task<TResult> Execute<TResult>(ICommand<TResult> command) => mediator.Send(command);
}

public static class OrderCancellation
{
    public static Task<bool> CancelAsync(CommandsExecutor executor, int orderId) =>
        executor.Execute(new CancelOrderCommand(orderId));
}

// The module facade over the executor (modular-monolith-with-ddd's IMeetingsModule): the caller calls the interface,
// whose implementation hands the command on to the executor, which sends it. Walked back, the handler's sender is
// the member that made the command, two forwarders and an interface away.
public interface IOrdersModule
{
    Task<TResult> ExecuteCommandAsync<TResult>(ICommand<TResult> command);
}

public sealed class OrdersModule(CommandsExecutor executor) : IOrdersModule
{
    public Task<TResult> ExecuteCommandAsync<TResult>(ICommand<TResult> command) => executor.Execute(command);
}

public sealed record ArchiveOrderCommand(int OrderId) : ICommand<bool>;

public sealed class ArchiveOrderHandler : ICommandHandler<ArchiveOrderCommand, bool>
{
    public Task<bool> Handle(ArchiveOrderCommand command, CancellationToken cancellationToken) =>
        Task.FromResult(new ArchivedOrder(command.OrderId).Events.Count > 0);
}

public static class OrderArchiving
{
    public static Task<bool> ArchiveAsync(IOrdersModule orders, int orderId) =>
        orders.ExecuteCommandAsync(new ArchiveOrderCommand(orderId));

    // Handed the command (a page's model-bound `OnPostAsync(Edit.Command c)`): it sends it, though it makes none.
    public static Task<bool> ArchiveBoundAsync(IOrdersModule orders, ArchiveOrderCommand command) =>
        orders.ExecuteCommandAsync(command);
}

// Domain events: the aggregate records the event when it is made, and a dispatcher publishes every recorded event
// later, typed as IDomainEvent. The handler runs because the aggregate was made: its sender is that constructor.
public interface IDomainEvent : INotification;

public sealed record OrderArchivedDomainEvent(int OrderId) : IDomainEvent;

public sealed class OrderArchivedHandler : INotificationHandler<OrderArchivedDomainEvent>
{
    public Task Handle(OrderArchivedDomainEvent notification, CancellationToken cancellationToken) => Task.CompletedTask;
}

public sealed class ArchivedOrder
{
    private readonly List<IDomainEvent> _events = [];

    public ArchivedOrder(int orderId) => _events.Add(new OrderArchivedDomainEvent(orderId));

    public IReadOnlyList<IDomainEvent> Events => _events;
}

public sealed class DomainEventsDispatcher(IMediator mediator)
{
    public async Task DispatchAsync(IEnumerable<IDomainEvent> events)
    {
        foreach (var domainEvent in events)
        {
            await mediator.Publish(domainEvent);
        }
    }
}
