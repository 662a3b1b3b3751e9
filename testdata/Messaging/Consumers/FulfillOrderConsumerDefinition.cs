using MassTransit;

namespace Messaging.Consumers;

// Nothing names it: AddConsumersFromNamespaceContaining finds it with its consumer.
public class FulfillOrderConsumerDefinition : ConsumerDefinition<FulfillOrderConsumer>
{
    public FulfillOrderConsumerDefinition()
    {
        ConcurrentMessageLimit = 4;
    }

    protected override void ConfigureConsumer(IReceiveEndpointConfigurator endpointConfigurator,
        IConsumerConfigurator<FulfillOrderConsumer> consumerConfigurator, IRegistrationContext context)
    {
        endpointConfigurator.UseDelayedRedelivery(r => r.Intervals(TimeSpan.FromMinutes(1), TimeSpan.FromMinutes(5)));
        endpointConfigurator.UseMessageRetry(r =>
        {
            r.Ignore<InvalidOperationException>();
            r.Interval(3, 1000);
        });
        // One interval each: a params array of one (was read as 500 retries, and as unknown).
        endpointConfigurator.UseScheduledRedelivery(r => r.Intervals(TimeSpan.FromSeconds(30)));
        endpointConfigurator.UseRetry(r => r.Intervals(500));
    }
}
