using MassTransit;
using Messaging.Contracts;

namespace Messaging.StateMachines;

// Written for another MassTransit than the one restored (Sample-Twitch's AcceptOrderActivity, for 7's Behavior<S, M>,
// on 8's IBehavior<S, M>): CS0535 twice, and no Implementation reference from Execute or Faulted.
public class AcceptOrderActivity : IStateMachineActivity<OrderState, OrderAccepted>
{
    public void Probe(ProbeContext context) => context.CreateScope("accept-order");

    public void Accept(StateMachineVisitor visitor) => visitor.Visit(this);

    public Task Execute(BehaviorContext<OrderState, OrderAccepted> context, IBehavior<OrderState> next) =>
        Task.CompletedTask;

    public Task Faulted<TException>(BehaviorExceptionContext<OrderState, OrderAccepted, TException> context,
        IBehavior<OrderState> next) where TException : Exception => Task.CompletedTask;
}
