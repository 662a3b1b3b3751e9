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
