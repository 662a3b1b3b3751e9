namespace Conventions.Web.Data;

public interface IAggregateRoot;

public abstract class Entity : IAggregateRoot
{
    public int Version { get; protected set; }
}

/// <summary>Nothing makes or names it: a subclass of an interface implementer that is no handler stays unused.</summary>
public sealed class Coupon : Entity;
