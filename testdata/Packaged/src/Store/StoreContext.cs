using Microsoft.EntityFrameworkCore;

namespace Store;

public class Order
{
    public int Id { get; set; }
    public string Customer { get; set; } = "";
}

/// <summary>Inherits SaveChanges/SaveChangesAsync/Set from EF Core's DbContext.</summary>
public class StoreContext : DbContext
{
    public DbSet<Order> Orders => Set<Order>();
}
