namespace Unbound;

public class BasketService
{
    private readonly Basket _basket = new();

    // IRepository<T> lives in a package this project does not reference (CS0246).
    private readonly IRepository<Basket> _repository;

    public BasketService(IRepository<Basket> repository) => _repository = repository;

    public void AddToBasket(int productId)
    {
        _basket.AddItem(productId, 1);
        _basket.AddItem(productId, 2);
    }

    public void Restock() => _basket.AddItem(7, 10);

    public Basket Load(int id) => _repository.GetByIdAsync(id);

    public void Reserve(int quantity)
    {
    }
}
