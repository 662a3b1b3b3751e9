namespace Shop.Domain;

/// <summary>Creates orders with deterministic identifiers.</summary>
public static class OrderFactory
{
    private static int s_sequence;

    /// <summary>How many orders have been created so far.</summary>
    public static int Created => s_sequence;

    /// <summary>Creates an order whose id encodes a running sequence number.</summary>
    public static Order Create(string customer, decimal total)
    {
        s_sequence++;
        var id = new Guid(s_sequence, 0, 0, new byte[8]);
        return new Order(id, customer, total);
    }
}
