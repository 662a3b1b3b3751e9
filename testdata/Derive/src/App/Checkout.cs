using Derive.Core;

namespace Derive.App;

public class Checkout
{
    private readonly Pricing _pricing = new();

    public string Run()
    {
        var order = new Order();
        order.Add(10m);
        var total = order.Sum(_pricing);
        var reduced = _pricing.Discount(total);
        return _pricing.Label(total) + reduced;
    }
}
