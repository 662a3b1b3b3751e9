namespace Unbound;

public class Checkout
{
    public void Run(BasketService service) => service.AddToBasket(1);
}
