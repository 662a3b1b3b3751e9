namespace Shop.Domain;

/// <summary>The lifecycle of an order.</summary>
public enum OrderStatus
{
    Pending,
    Paid,
    Shipped,
}
