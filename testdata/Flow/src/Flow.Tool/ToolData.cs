using Flow.Core;
using Flow.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace Flow.Tool;

/// <summary>The tool module's context: the shared InternalCommand in its own schema (modular-monolith's
/// RegistrationsContext applies its module's InternalCommandEntityTypeConfiguration).</summary>
public sealed class ToolDbContext(DbContextOptions<ToolDbContext> options) : DbContext(options)
{
    public DbSet<InternalCommand> InternalCommands => Set<InternalCommand>();

    protected override void OnModelCreating(ModelBuilder modelBuilder) =>
        modelBuilder.ApplyConfiguration(new ToolInternalCommandConfiguration());

    public int ClearInbox() => Database.ExecuteSqlRaw("DELETE FROM [tool].[InboxMessages]");
}

internal sealed class ToolInternalCommandConfiguration : IEntityTypeConfiguration<InternalCommand>
{
    public void Configure(EntityTypeBuilder<InternalCommand> builder) => builder.ToTable("InternalCommands", "tool");
}

/// <summary>A context of this project built from Flow.Data's configurations: its commands are orders' table, not
/// the tool schema's its own project maps.</summary>
public sealed class ArchiveContext(DbContextOptions<ArchiveContext> options) : DbContext(options)
{
    public DbSet<InternalCommand> ArchivedCommands => Set<InternalCommand>();

    protected override void OnModelCreating(ModelBuilder modelBuilder) =>
        modelBuilder.ApplyConfigurationsFromAssembly(typeof(FlowDbContext).Assembly);
}
