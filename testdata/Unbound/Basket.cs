namespace Unbound;

/// <summary>Called bound from BasketService and unbound from LegacyImporter.</summary>
public class Basket
{
    private readonly List<int> _items = new();

    public void AddItem(int productId, int quantity)
    {
        for (var i = 0; i < quantity; i++)
        {
            _items.Add(productId);
        }
    }

    public void AddItem(string sku) => _items.Add(sku.Length);

    public int Count => _items.Count;

    public void Label(int code)
    {
    }

    public void Label(string text)
    {
    }
}
