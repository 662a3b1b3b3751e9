using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace Flow.Tool;

public sealed class Subscription
{
    public int Id { get; set; }
}

public sealed class WebhookSubscription
{
    public int Id { get; set; }
}

public sealed class WebhookDelivery
{
    public int Id { get; set; }
}

/// <summary>fullstackhero's BillingDbContext: its model's default schema is billing, and its configurations name no
/// schema of their own, so every table of it is in billing: Subscriptions by ToTable, as its snapshot says.</summary>
public sealed class BillingContext(DbContextOptions<BillingContext> options) : DbContext(options)
{
    public const string Schema = "billing";

    public DbSet<Subscription> Subscriptions => Set<Subscription>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        modelBuilder.HasDefaultSchema(Schema);
        modelBuilder.ApplyConfigurationsFromAssembly(typeof(BillingContext).Assembly);
    }
}

internal sealed class SubscriptionConfiguration : IEntityTypeConfiguration<Subscription>
{
    public void Configure(EntityTypeBuilder<Subscription> builder) => builder.ToTable("Subscriptions");
}

/// <summary>Another module's table of the same name, in a schema its mapping names: webhooks.Subscriptions; and a
/// DbSet nothing maps, in the context's default schema: webhooks.Deliveries.</summary>
public sealed class WebhooksContext(DbContextOptions<WebhooksContext> options) : DbContext(options)
{
    public DbSet<WebhookSubscription> Subscriptions => Set<WebhookSubscription>();
    public DbSet<WebhookDelivery> Deliveries => Set<WebhookDelivery>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        modelBuilder.HasDefaultSchema("webhooks");
        modelBuilder.Entity<WebhookSubscription>().ToTable("Subscriptions", "webhooks");
    }
}
