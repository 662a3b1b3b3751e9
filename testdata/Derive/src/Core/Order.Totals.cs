namespace Derive.Core;

public partial class Order
{
    public decimal Sum(Pricing pricing) => _lines.Sum(line => pricing.Total(line, 1));
}
