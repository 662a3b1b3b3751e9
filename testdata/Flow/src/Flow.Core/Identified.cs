namespace Flow.Core;

// eShop's idempotent commands: the endpoint sends IdentifiedCommand<ShipOrderCommand, bool>; the one generic
// handler of every identified command sends the command it wraps, typed only as its T. A trace goes on into
// ShipOrderHandler (T is ShipOrderCommand there), and ShipOrderHandler's senders are those that wrapped it.
public sealed record IdentifiedCommand<T, R>(T Command, Guid Id) : IRequest<R>
    where T : IRequest<R>;

public sealed record ShipOrderCommand(int OrderId) : IRequest<bool>;

public abstract class IdentifiedCommandHandler<T, R>(IMediator mediator) : IRequestHandler<IdentifiedCommand<T, R>, R>
    where T : IRequest<R>
{
    public async Task<R> Handle(IdentifiedCommand<T, R> message, CancellationToken cancellationToken)
    {
        var command = message.Command;
        return await mediator.Send<R>(command, cancellationToken);
    }
}

public sealed class ShipOrderIdentifiedHandler(IMediator mediator) : IdentifiedCommandHandler<ShipOrderCommand, bool>(mediator);

public sealed class ShipOrderHandler : IRequestHandler<ShipOrderCommand, bool>
{
    public Task<bool> Handle(ShipOrderCommand command, CancellationToken cancellationToken) =>
        Task.FromResult(command.OrderId > 0);
}

public static class Shipping
{
    public static Task<bool> ShipAsync(IMediator mediator, int orderId) =>
        mediator.Send(new IdentifiedCommand<ShipOrderCommand, bool>(new ShipOrderCommand(orderId), Guid.NewGuid()));
}
