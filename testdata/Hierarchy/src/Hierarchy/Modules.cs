// A modular monolith (kgrzybek/modular-monolith-with-ddd): each module declares its own ICommandHandler over the
// mediator's IRequestHandler, whose Handle it does not redeclare, and its own decorator calling the handler it wraps
// through that interface. `decorated.Handle(c)` binds to IRequestHandler.Handle, but only the module's own handlers
// implement the module's interface: another module's decorator is no caller of this module's handlers.
namespace Hierarchy.Modules
{
    public interface IRequestHandler<in TRequest>
    {
        Task Handle(TRequest request);
    }
}

namespace Hierarchy.Modules.Billing
{
    public interface ICommandHandler<in TCommand> : Hierarchy.Modules.IRequestHandler<TCommand>;

    public sealed record Charge(int Amount);

    public sealed class ChargeHandler : ICommandHandler<Charge>
    {
        public Task Handle(Charge request) => Task.CompletedTask;
    }

    public sealed class LoggingDecorator<TCommand>(ICommandHandler<TCommand> decorated) : ICommandHandler<TCommand>
    {
        public Task Handle(TCommand request) => decorated.Handle(request);
    }
}

namespace Hierarchy.Modules.Shipping
{
    public interface ICommandHandler<in TCommand> : Hierarchy.Modules.IRequestHandler<TCommand>;

    public sealed record Ship(string Address);

    public sealed class ShipHandler : ICommandHandler<Ship>
    {
        public Task Handle(Ship request) => Task.CompletedTask;
    }

    public sealed class LoggingDecorator<TCommand>(ICommandHandler<TCommand> decorated) : ICommandHandler<TCommand>
    {
        public Task Handle(TCommand request) => decorated.Handle(request);
    }

    public static class Dispatch
    {
        // Typed as the mediator's interface: any module's handler may run.
        public static Task Any(Hierarchy.Modules.IRequestHandler<Ship> handler, Ship ship) => handler.Handle(ship);
    }
}
