using Microsoft.EntityFrameworkCore;

namespace Conventions.Web.Data;

/// <summary>SimplCommerce's generic repository: `DbSet<T> DbSet` is whatever entity T is, not a table "DbSet".</summary>
public class Repository<T>(ShopContext context) where T : class
{
    protected DbSet<T> DbSet => context.Set<T>();

    public IQueryable<T> Query() => DbSet;
}
