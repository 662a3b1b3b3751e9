namespace Shop.Domain;

/// <summary>Shop-wide constants.</summary>
public static class ShopConstants
{
    /// <summary>The currency used when none is given.</summary>
    public const string DefaultCurrency = "EUR";

    /// <summary>Orders at or above this total count as large.</summary>
    public const decimal LargeOrderThreshold = 1000m;

    public const int MaxAddresses = 3;
}
