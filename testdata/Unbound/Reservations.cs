namespace Unbound;

/// <summary>eShopOnWeb's Basket page: an argument's type comes from a missing reference, so the compiler
/// cannot bind the call, yet names the members it could be (its candidates).</summary>
public class Reservations
{
    private readonly ExternalStock _stock = new();
    private readonly BasketService _service;

    public Reservations(BasketService service) => _service = service;

    public void Hold(int productId) => _service.Reserve(_stock.Available(productId));

    public void Tag(Basket basket) => basket.Label(_stock.Name);
}

/// <summary>Another Reserve: the unbound call in Hold is not one of its callers (the compiler's one
/// candidate there is BasketService.Reserve).</summary>
public class Warehouse
{
    public void Reserve(int quantity)
    {
    }
}
