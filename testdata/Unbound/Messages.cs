namespace Unbound;

// MassTransit not referenced (Sample-Twitch with the package missing): a publish of a message initializer names its
// message by the type argument written, whatever the receiver; the consumer takes it in its ConsumeContext<T>.
public record OrderShipped(int Id);

public class ShippingNotice(MassTransit.IPublishEndpoint publishEndpoint)
{
    public Task Notify(int id) => publishEndpoint.Publish<OrderShipped>(new { Id = id });
}

public class OrderShippedConsumer : MassTransit.IConsumer<OrderShipped>
{
    public Task Consume(MassTransit.ConsumeContext<OrderShipped> context) => Task.CompletedTask;
}
