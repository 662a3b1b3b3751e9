namespace Derive.Core;

/// <summary>An order: lines here, totals in Order.Totals.cs.</summary>
public partial class Order
{
    private readonly List<decimal> _lines = new();

    public void Add(decimal price) => _lines.Add(price);
}
