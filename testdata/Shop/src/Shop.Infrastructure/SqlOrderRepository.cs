using Shop.Domain;

namespace Shop.Infrastructure;

/// <summary>An <see cref="IOrderRepository"/> that records the SQL it would run.</summary>
public sealed class SqlOrderRepository : IOrderRepository
{
    private const string TableName = "dbo.Orders";

    private readonly Dictionary<Guid, Order> _rows = new();
    private readonly List<string> _log = new();
    private int _writes;

    public event EventHandler<OrderSavedEventArgs>? Saved;

    public int Count => _rows.Count;

    /// <summary>How many rows have been written.</summary>
    public int Writes => _writes;

    /// <summary>The SQL statements issued so far.</summary>
    public IReadOnlyList<string> Log => _log;

    public Order? Get(Guid id)
    {
        _log.Add($"SELECT * FROM {TableName} WHERE Id = '{id}'");
        return _rows.TryGetValue(id, out var order) ? order : null;
    }

    public void Save(Order order) => Save(order, overwrite: true);

    /// <summary>Saves an order; when <paramref name="overwrite"/> is false an existing row is kept.</summary>
    public void Save(Order order, bool overwrite)
    {
        if (!overwrite && _rows.ContainsKey(order.Id))
        {
            return;
        }

        _rows[order.Id] = order;
        _log.Add($"MERGE INTO {TableName} ({order.Id})");
        Counters.Increment(ref _writes);
        OnSaved(order);
    }

    public bool Delete(Guid id)
    {
        _log.Add($"DELETE FROM {TableName} WHERE Id = '{id}'");
        return _rows.Remove(id);
    }

    private void OnSaved(Order order) => Saved?.Invoke(this, new OrderSavedEventArgs(order));
}
