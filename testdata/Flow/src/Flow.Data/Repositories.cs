using Flow.Core;
using Microsoft.EntityFrameworkCore;

namespace Flow.Data;

/// <summary>Ombi's BaseRepository: the registered repository inherits AddAsync from a base that does not implement
/// IRepository&lt;T&gt; itself; a trace through DI still runs it.</summary>
public abstract class EfRepositoryBase<T>(FlowDbContext db) where T : class
{
    protected readonly FlowDbContext Db = db;

    public async Task AddAsync(T entity, CancellationToken cancellationToken)
    {
        Db.Set<T>().Add(entity);
        await Db.SaveChangesAsync(cancellationToken);
    }
}

/// <summary>The IRepository&lt;T&gt; registered in DI (as an open generic).</summary>
public sealed class EfRepository<T>(FlowDbContext db) : EfRepositoryBase<T>(db), IRepository<T> where T : class
{
    public Task<List<T>> ListAsync(CancellationToken cancellationToken) => Db.Set<T>().ToListAsync(cancellationToken);
}

/// <summary>Another implementation, used by tests only: never registered, so a trace leaves it out.</summary>
public sealed class InMemoryRepository<T> : IRepository<T> where T : class
{
    private readonly List<T> _items = [];

    public Task<List<T>> ListAsync(CancellationToken cancellationToken) => Task.FromResult(_items.ToList());

    public Task AddAsync(T entity, CancellationToken cancellationToken)
    {
        _items.Add(entity);
        return Task.CompletedTask;
    }
}
