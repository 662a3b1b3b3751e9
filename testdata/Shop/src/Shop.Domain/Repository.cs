namespace Shop.Domain;

/// <summary>A minimal generic store.</summary>
public interface IRepository<T>
    where T : class
{
    int Count { get; }

    void Add(T item);

    bool Remove(T item);

    T? Find(Func<T, bool> predicate);

    IReadOnlyList<T> All();
}

/// <summary>A list-backed <see cref="IRepository{T}"/>.</summary>
public class Repository<T> : IRepository<T>
    where T : class
{
    private readonly List<T> _items = new();

    public int Count => _items.Count;

    /// <summary>Appends an item; subclasses may validate or normalize it first.</summary>
    public virtual void Add(T item) => _items.Add(item);

    public bool Remove(T item) => _items.Remove(item);

    public T? Find(Func<T, bool> predicate) => _items.FirstOrDefault(predicate);

    public IReadOnlyList<T> All() => _items;
}
