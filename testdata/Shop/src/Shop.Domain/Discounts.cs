namespace Shop.Domain;

/// <summary>Computes an extra adjustment to an order's price.</summary>
public delegate decimal PriceRule(Order order);

/// <summary>A discount applied to an order total.</summary>
public abstract class Discount
{
    /// <summary>Applies the discount to <paramref name="total"/>.</summary>
    public abstract decimal Apply(decimal total);

    /// <summary>A human-readable description.</summary>
    public virtual string Describe() => GetType().Name;
}

/// <summary>Takes a percentage off the total.</summary>
public sealed class PercentageDiscount(decimal percent) : Discount
{
    public decimal Percent { get; } = percent;

    public override decimal Apply(decimal total) => total - (total * Percent / 100m);

    public override string Describe() => $"{Percent}% off";
}

/// <summary>Takes a fixed amount off the total, never going below zero.</summary>
public sealed class FixedDiscount(decimal amount) : Discount
{
    public override decimal Apply(decimal total) => Math.Max(0m, total - amount);

    public override string Describe() => base.Describe() + $" ({amount})";
}
