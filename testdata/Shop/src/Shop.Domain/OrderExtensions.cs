namespace Shop.Domain;

/// <summary>Convenience queries over orders.</summary>
public static class OrderExtensions
{
    /// <summary>True when the total reaches <see cref="ShopConstants.LargeOrderThreshold"/>.</summary>
    public static bool IsLarge(this Order o) => o.Total >= ShopConstants.LargeOrderThreshold;

    /// <summary>Returns a copy of the order with <paramref name="discount"/> applied.</summary>
    public static Order WithDiscount(this Order o, Discount discount) => o with { Total = discount.Apply(o.Total) };

    /// <summary>Sums the totals of several orders.</summary>
    public static decimal SumTotals(this IEnumerable<Order> orders) => orders.Sum(o => o.Total);
}
