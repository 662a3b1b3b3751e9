using Microsoft.EntityFrameworkCore;

namespace Conventions.Web.Data;

public sealed class ShopContext(DbContextOptions<ShopContext> options) : DbContext(options)
{
    public DbSet<Product> Products => Set<Product>();
}

public sealed class Product
{
    public int Id { get; set; }
    public string Name { get; set; } = "";
}

public sealed class Supplier
{
    public int Id { get; set; }
}
