namespace Shop.Domain;

/// <summary>An order placed by a customer.</summary>
/// <param name="Id">The order identifier.</param>
/// <param name="Customer">The customer's name.</param>
/// <param name="Total">The order total in the default currency.</param>
public record Order(Guid Id, string Customer, decimal Total)
{
    /// <summary>Where the order is in its lifecycle.</summary>
    public OrderStatus Status { get; init; } = OrderStatus.Pending;

    /// <summary>Returns a copy of this order marked as paid.</summary>
    public Order MarkPaid() => this with { Status = OrderStatus.Paid };

    /// <summary>The total as a <see cref="Money"/> value.</summary>
    public Money ToMoney() => new(Total, ShopConstants.DefaultCurrency);
}
