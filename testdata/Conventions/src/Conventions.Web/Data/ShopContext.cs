using Microsoft.EntityFrameworkCore;

namespace Conventions.Web.Data;

public sealed class ShopContext(DbContextOptions<ShopContext> options) : DbContext(options)
{
    public DbSet<Product> Products => Set<Product>();

    // modular-monolith's `ToTable("Members", "meetings")` beside `("Members", "administration")`: one name, two tables.
    protected override void OnModelCreating(ModelBuilder modelBuilder) =>
        modelBuilder.Entity<ArchivedProduct>().ToTable("Products", "archive");
}

public sealed class ArchivedProduct
{
    public int Id { get; set; }
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
