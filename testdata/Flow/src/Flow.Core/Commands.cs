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
