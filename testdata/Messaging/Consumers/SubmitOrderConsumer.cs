using MassTransit;
using Messaging.Contracts;

namespace Messaging.Consumers;

public class SubmitOrderConsumer : IConsumer<SubmitOrder>
{
    public async Task Consume(ConsumeContext<SubmitOrder> context)
    {
        await context.Publish<OrderSubmitted>(new { context.Message.OrderId });
        await context.RespondAsync<OrderSubmissionAccepted>(new { context.Message.OrderId });
    }
}
