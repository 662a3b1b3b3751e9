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
    }
}
