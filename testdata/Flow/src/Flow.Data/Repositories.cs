using Flow.Core;
using Microsoft.EntityFrameworkCore;

namespace Flow.Data;

/// <summary>The IRepository&lt;T&gt; registered in DI (as an open generic).</summary>
public sealed class EfRepository<T>(FlowDbContext db) : IRepository<T> where T : class
{
    public Task<List<T>> ListAsync(CancellationToken cancellationToken) => db.Set<T>().ToListAsync(cancellationToken);

    public async Task AddAsync(T entity, CancellationToken cancellationToken)
    {
        db.Set<T>().Add(entity);
        await db.SaveChangesAsync(cancellationToken);
    }
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
