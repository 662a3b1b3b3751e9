// A modular monolith's commands (kgrzybek/modular-monolith-with-ddd): every module registers its own logging
// decorator for the mediator's IRequestHandler<,>, but each decorator implements its module's own ICommandHandler<,>
// (its command constrained to the module's ICommand<>), so it wraps only that module's command handlers, and no
// query handler. A trace showed every module's decorator around every request.
namespace Container.App.Commands
{
    public interface IRequest<TResult>;

    public interface IRequestHandler<in TRequest, TResult> where TRequest : IRequest<TResult>
    {
        Task<TResult> Handle(TRequest request, CancellationToken cancellationToken);
    }

    public interface IMediator
    {
        Task<TResult> Send<TResult>(IRequest<TResult> request, CancellationToken cancellationToken = default);
    }

    public sealed record GetInvoice(int Id) : IRequest<int>;

    public sealed class GetInvoiceHandler : IRequestHandler<GetInvoice, int>
    {
        public Task<int> Handle(GetInvoice request, CancellationToken cancellationToken) => Task.FromResult(request.Id);
    }

    public sealed class BillingEndpoint(IMediator mediator)
    {
        public Task<bool> Bill(int amount) => mediator.Send(new Billing.BillCommand(amount));

        public Task<int> Invoice(int id) => mediator.Send(new GetInvoice(id));
    }
}

namespace Container.App.Commands.Billing
{
    public interface ICommand<TResult> : IRequest<TResult>;

    public interface ICommandHandler<in TCommand, TResult> : IRequestHandler<TCommand, TResult>
        where TCommand : ICommand<TResult>;

    public sealed record BillCommand(int Amount) : ICommand<bool>;

    public sealed class BillCommandHandler : ICommandHandler<BillCommand, bool>
    {
        public Task<bool> Handle(BillCommand request, CancellationToken cancellationToken) => Task.FromResult(request.Amount > 0);
    }

    public sealed class LoggingDecorator<TCommand, TResult>(ICommandHandler<TCommand, TResult> decorated)
        : ICommandHandler<TCommand, TResult> where TCommand : ICommand<TResult>
    {
        public Task<TResult> Handle(TCommand request, CancellationToken cancellationToken) =>
            decorated.Handle(request, cancellationToken);
    }
}

namespace Container.App.Commands.Shipping
{
    public interface ICommand<TResult> : IRequest<TResult>;

    public interface ICommandHandler<in TCommand, TResult> : IRequestHandler<TCommand, TResult>
        where TCommand : ICommand<TResult>;

    public sealed class LoggingDecorator<TCommand, TResult>(ICommandHandler<TCommand, TResult> decorated)
        : ICommandHandler<TCommand, TResult> where TCommand : ICommand<TResult>
    {
        public Task<TResult> Handle(TCommand request, CancellationToken cancellationToken) =>
            decorated.Handle(request, cancellationToken);
    }
}
