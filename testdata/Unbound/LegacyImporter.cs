namespace Unbound;

/// <summary>Receivers whose types come from a missing reference: none of these calls can be bound.</summary>
public class LegacyImporter
{
    private readonly ExternalCart _cart = new();

    public void Import()
    {
        _cart.AddItem(3, 4);
        _cart.Remove(3);
    }

    public void ImportAll(CartFactory factory)
    {
        var basket = factory.Create();
        basket.AddItem(5, 6);
        var repo = factory.Repository();
        repo.GetByIdAsync(9);
    }
}
