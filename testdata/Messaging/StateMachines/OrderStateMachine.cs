using MassTransit;
using Messaging.Contracts;

namespace Messaging.StateMachines;

public class OrderState : SagaStateMachineInstance
{
    public Guid CorrelationId { get; set; }

    public string CurrentState { get; set; } = "";
}

public class OrderStateMachine : MassTransitStateMachine<OrderState>
{
    public OrderStateMachine()
    {
        InstanceState(x => x.CurrentState);
        Event(() => OrderSubmitted, x => x.CorrelateById(m => m.Message.OrderId));
        Event(() => OrderAccepted, x => x.CorrelateById(m => m.Message.OrderId));
        Event(() => StatusRequested, x => x.CorrelateById(m => m.Message.OrderId));
        Event(() => FulfillFaulted, x => x.CorrelateById(m => m.Message.Message.OrderId));

        Initially(When(OrderSubmitted).TransitionTo(Submitted));
        During(Submitted, When(OrderAccepted).Activity(x => x.OfType<AcceptOrderActivity>()).TransitionTo(Accepted));
        DuringAny(When(StatusRequested).RespondAsync(x => x.Init<OrderStatus>(new
        {
            OrderId = x.Saga.CorrelationId,
            State = x.Saga.CurrentState,
        })));
    }

    public State Submitted { get; private set; } = null!;

    public State Accepted { get; private set; } = null!;

    public Event<OrderSubmitted> OrderSubmitted { get; private set; } = null!;

    public Event<OrderAccepted> OrderAccepted { get; private set; } = null!;

    public Event<CheckOrder> StatusRequested { get; private set; } = null!;

    // MassTransit publishes Fault<FulfillOrder> when FulfillOrder's consumer fails: no handler of FulfillOrder.
    public Event<Fault<FulfillOrder>> FulfillFaulted { get; private set; } = null!;
}

// A state machine whose event behaviours call the solution's code: a message reaching `Shipped` runs the `Then`
// lambda's call and the activity's Execute (the chain `When(Shipped)` wires), not `Cancelled`'s.
public class ShippingStateMachine : MassTransitStateMachine<OrderState>
{
    public ShippingStateMachine()
    {
        InstanceState(x => x.CurrentState);
        Event(() => Shipped, x => x.CorrelateById(m => m.Message.OrderId));
        Initially(
            When(Shipped)
                .Then(ctx => ShippingLog.Record(ctx.Message.OrderId))
                .Activity(x => x.OfType<ShipActivity>())
                .TransitionTo(Done),
            When(Cancelled)
                .Then(ctx => ShippingLog.Forget(ctx.Message.OrderId)));
    }

    public State Done { get; private set; } = null!;

    public Event<OrderShipped> Shipped { get; private set; } = null!;

    public Event<OrderCancelled> Cancelled { get; private set; } = null!;
}

public record OrderShipped
{
    public Guid OrderId { get; init; }
}

public record OrderCancelled
{
    public Guid OrderId { get; init; }
}

public class ShipActivity : IStateMachineActivity<OrderState, OrderShipped>
{
    public void Probe(ProbeContext context) => context.CreateScope("ship");

    public void Accept(StateMachineVisitor visitor) => visitor.Visit(this);

    public Task Execute(BehaviorContext<OrderState, OrderShipped> context, IBehavior<OrderState, OrderShipped> next) =>
        next.Execute(context);

    public Task Faulted<TException>(BehaviorExceptionContext<OrderState, OrderShipped, TException> context,
        IBehavior<OrderState, OrderShipped> next) where TException : Exception => next.Faulted(context);
}

public static class ShippingLog
{
    public static void Record(Guid id) => Console.WriteLine(id);

    public static void Forget(Guid id) => Console.WriteLine(id);
}
