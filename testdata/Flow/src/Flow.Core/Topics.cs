// CAP (DotNetCore.CAP) finds its subscribers by attribute, through reflection, and runs them when a message is
// published under the attribute's name; Dapr's [Topic("pubsub", "orders")] also names the pub/sub component. No call
// joins a publish to a subscriber: the strings do (query/topics.py). Both libraries' shapes are declared here.
namespace Flow.Core.Topics
{
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public class TopicAttribute(string name) : Attribute
    {
        public string Name { get; } = name;

        public string? Group { get; set; }
    }

    public sealed class CapSubscribeAttribute(string name) : TopicAttribute(name);

    public interface ICapPublisher
    {
        Task PublishAsync<T>(string name, T? content, string? callbackName = null);
    }

    public interface ICapSubscribe;

    public static class Names
    {
        public const string OrderShipped = "orders.shipped";
    }

    public sealed class ShippingSubscriber : ICapSubscribe
    {
        [CapSubscribe(Names.OrderShipped, Group = "mail")]
        public void OnShipped(int orderId) => Console.WriteLine(orderId);

        [CapSubscribe("orders.returned")]
        public Task OnReturned(int orderId) => Task.CompletedTask;
    }

    public sealed class Shipping(ICapPublisher bus)
    {
        public Task Ship(int orderId) => bus.PublishAsync(Names.OrderShipped, orderId);

        // No subscriber in the solution: a stop. A named `callbackName:` is no topic.
        public Task Archive(int orderId) => bus.PublishAsync("orders.archived", orderId, callbackName: "orders.shipped");
    }
}

namespace Flow.Core.Topics.Dapr
{
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class TopicAttribute(string pubsubName, string name, string? deadLetterTopic = null) : Attribute;

    public class DaprClient
    {
        public virtual Task PublishEventAsync(string pubsubName, string topicName, object data) => Task.CompletedTask;
    }

    public sealed class StockListener
    {
        [Topic("pubsub", "stock")]
        public void OnStock(int count) => Console.WriteLine(count);

        // The same topic on another pub/sub component: not run by a publish on "pubsub".
        [Topic("audit", "stock")]
        public void OnAuditedStock(int count) => Console.WriteLine(count);

        // A dead-letter topic is no address: a publish on "pubsub"/"stock" runs it.
        [Topic("pubsub", "stock", "stock.dead")]
        public void OnStockOrDead(int count) => Console.WriteLine(count);
    }

    public sealed class Stocker(DaprClient dapr)
    {
        public Task Count(int count) => dapr.PublishEventAsync("pubsub", "stock", count);
    }
}
