namespace Shop.Infrastructure;

/// <summary>Running totals over saved orders.</summary>
public sealed class OrderStatistics
{
    public int Count { get; set; }

    public decimal Total { get; set; }

    public decimal Largest { get; set; }

    /// <summary>The mean order total; false when nothing has been recorded.</summary>
    public bool TryGetAverage(out decimal average)
    {
        if (Count == 0)
        {
            average = 0m;
            return false;
        }

        average = Total / Count;
        return true;
    }
}

/// <summary>Small helpers over counters.</summary>
public static class Counters
{
    /// <summary>Increments <paramref name="counter"/> in place and returns the new value.</summary>
    public static int Increment(ref int counter) => ++counter;
}
