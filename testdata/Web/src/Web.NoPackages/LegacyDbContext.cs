using Microsoft.EntityFrameworkCore;

namespace Web.NoPackages;

public sealed class Invoice
{
    public int Id { get; set; }
    public decimal Amount { get; set; }
}

public sealed class Payment
{
    public int Id { get; set; }
    public int InvoiceId { get; set; }
}

/// <summary>An EF Core context in a project that does not reference EF Core.</summary>
public sealed class LegacyDbContext : DbContext
{
    public DbSet<Invoice> Invoices { get; set; } = null!;
    public DbSet<Payment> Payments { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        modelBuilder.Entity<Payment>().ToTable("payments", "billing");
    }

    public IQueryable<Invoice> Overdue() =>
        Invoices.FromSqlRaw("SELECT * FROM billing.invoices WHERE DueDate < GETDATE()");

    public int SaveChecked()
    {
        if (Invoices is null) throw new DbUpdateException("no invoice set");
        try
        {
            return SaveChanges();
        }
        catch (DbUpdateConcurrencyException)
        {
            throw;
        }
    }
}
