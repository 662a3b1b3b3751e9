using Shop.Domain;

namespace Shop.Services;

/// <summary>Computes final prices from a discount and a list of <see cref="PriceRule"/>s.</summary>
public sealed class PricingService
{
    private readonly List<PriceRule> _rules = new();

    public void AddRule(PriceRule rule) => _rules.Add(rule);

    /// <summary>The order total after <paramref name="discount"/> and every rule.</summary>
    public decimal Price(Order order, Discount? discount = null)
    {
        var total = discount?.Apply(order.Total) ?? order.Total;
        foreach (var rule in _rules)
        {
            total += rule(order);
        }

        return total;
    }

    /// <summary>Returns the item with the highest <paramref name="score"/>.</summary>
    public static T Best<T>(IEnumerable<T> items, Func<T, decimal> score)
        where T : notnull
    {
        return items.MaxBy(score) ?? throw new ArgumentException("No items.", nameof(items));
    }
}
