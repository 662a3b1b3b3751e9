using Tested.Core;

namespace Tested.Api;

public static class OrderEndpoints
{
    public static decimal Quote(int id)
    {
        var service = new OrderService(new PriceCalculator());
        return service.Place(id);
    }

    public static string Health() => "ok";
}
