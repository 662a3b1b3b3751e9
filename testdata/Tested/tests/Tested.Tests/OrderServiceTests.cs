using Tested.Core;
using Xunit;

namespace Tested.Tests;

public class OrderServiceTests
{
    [Fact]
    public void PlaceDoublesTheQuantity()
    {
        var service = Build();
        Assert.Equal(4m, service.Place(2));
    }

    [Theory]
    [InlineData(3)]
    public void ComputeDoubles(int quantity)
    {
        Assert.Equal(quantity * 2m, new PriceCalculator().Compute(quantity));
    }

    private static OrderService Build() => new OrderService(new PriceCalculator());
}
