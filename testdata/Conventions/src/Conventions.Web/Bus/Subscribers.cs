using System.Reflection;
using DotNetCore.CAP;
using JetBrains.Annotations;

namespace Conventions.Web.Bus;

/// <summary>CAP's own TopicAttribute: its selector reads it by reflection, so a method carrying it, or a subclass
/// of it, is one the bus calls.</summary>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
public class TopicAttribute(string name) : Attribute
{
    public string Name { get; } = name;
}

public sealed class SubscribeAttribute(string name) : TopicAttribute(name);

/// <summary>An attribute nothing reads: a method carrying it is called by no one for it.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class AuditedAttribute : Attribute;

/// <summary>CAP's ConsumerServiceSelector: `method.GetCustomAttributes&lt;TopicAttribute&gt;(true)`.</summary>
public static class TopicSelector
{
    public static IEnumerable<string> Topics(Type type) =>
        type.GetMethods().SelectMany(m => m.GetCustomAttributes<TopicAttribute>(true)).Select(a => a.Name);
}

public class OrderSubscriber
{
    [Subscribe("order.created")]
    public void OnOrderCreated(Guid id)
    {
    }

    [Audited]
    public void Archive()
    {
    }

    /// <summary>Returns the attribute, does not carry it.</summary>
    public TopicAttribute Describe() => new SubscribeAttribute("order.described");
}

/// <summary>CAP's samples: a subscriber CAP finds by its package's attribute.</summary>
public class PaymentSubscriber : ICapSubscribe
{
    [CapSubscribe("payment.received")]
    public void OnPaymentReceived(string id)
    {
    }

    /// <summary>JetBrains' [Pure] only annotates.</summary>
    [Pure]
    public int Fee(int amount) => amount / 100;

    /// <summary>JetBrains' [UsedImplicitly] says something uses it unnamed.</summary>
    [UsedImplicitly]
    public void Reconcile()
    {
    }
}
