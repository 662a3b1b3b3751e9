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
