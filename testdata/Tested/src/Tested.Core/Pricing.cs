namespace Tested.Core;

public interface IPriceCalculator
{
    decimal Compute(int quantity);
}

public class PriceCalculator : IPriceCalculator
{
    public decimal Compute(int quantity) => quantity * 2m;
}

public class OrderService
{
    private readonly IPriceCalculator _calculator;

    public OrderService(IPriceCalculator calculator)
    {
        _calculator = calculator;
    }

    public decimal Place(int quantity)
    {
        return _calculator.Compute(quantity);
    }

    public void Archive()
    {
    }

    private static decimal Round(decimal value) => decimal.Round(value, 2);
}

internal static class LegacyPricing
{
    public static decimal Flat() => 1m;
}
