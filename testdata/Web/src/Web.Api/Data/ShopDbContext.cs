using Microsoft.EntityFrameworkCore;

namespace Web.Api.Data;

public sealed class ShopDbContext(DbContextOptions<ShopDbContext> options) : DbContext(options)
{
    public DbSet<Order> Orders => Set<Order>();
    public DbSet<Customer> Customers { get; set; } = null!;
    public DbSet<AuditEntry> AuditEntries { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        modelBuilder.Entity<AuditEntry>().ToTable("audit_log", "ops");
        modelBuilder.Entity<Order>(order => order.ToTable("orders"));
    }
}
