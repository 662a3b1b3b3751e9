namespace Derive.Core;

/// <summary>Prices an order line.</summary>
public class Pricing
{
    public const string Currency = "EUR";

    public decimal Total(decimal price, int quantity)
    {
        return price * quantity;
    }

    public string Label(decimal amount) => $"{amount} {Currency}";
}

/// <summary>Serialized by App's QuoteContext (a System.Text.Json source generator): its GeneratedUse facts stand
/// here, in Core, and move when a line above is added.</summary>
public class Quote
{
    public decimal Amount { get; set; }
}
