namespace Shop.Domain;

/// <summary>An amount of money in one currency.</summary>
public record struct Money(decimal Amount, string Currency)
{
    /// <summary>Zero in the default currency.</summary>
    public static readonly Money Zero = new(0m, ShopConstants.DefaultCurrency);

    /// <summary>Adds two amounts of the same currency.</summary>
    public static Money operator +(Money left, Money right)
    {
        if (left.Currency != right.Currency)
        {
            throw new InvalidOperationException("Currency mismatch.");
        }

        return new Money(left.Amount + right.Amount, left.Currency);
    }

    /// <summary>Multiplies an amount by a quantity.</summary>
    public static Money operator *(Money money, int quantity) => money with { Amount = money.Amount * quantity };

    /// <summary>The bare amount, without its currency.</summary>
    public static explicit operator decimal(Money money) => money.Amount;

    public override readonly string ToString() => $"{Amount:0.00} {Currency}";
}
