using MassTransit;
using Messaging.Contracts;

namespace Messaging.Consumers;

// Names SubmitOrder in its body: still only FulfillOrder's consumer.
public class FulfillOrderConsumer : IConsumer<FulfillOrder>
{
    public Task Consume(ConsumeContext<FulfillOrder> context)
    {
        var resubmit = new SubmitOrder { OrderId = context.Message.OrderId };
        return Task.FromResult(resubmit);
    }
}
