namespace Unbound;

/// <summary>Extension methods on a missing library's type, as guard clauses are written (IGuardClause):
/// nothing names the class, and its one call cannot be bound, so the class may well be used.</summary>
internal static class StockGuards
{
    internal static void OutOfStock(this IGuardClause guard, int quantity)
    {
        if (quantity <= 0)
        {
            throw new InvalidOperationException("Out of stock.");
        }
    }

    internal static void Discontinued(this IGuardClause guard, bool discontinued)
    {
    }
}

public class Stockroom
{
    public void Take(int quantity) => Guard.Against.OutOfStock(quantity);
}
