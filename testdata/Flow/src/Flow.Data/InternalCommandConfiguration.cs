using Flow.Core;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace Flow.Data;

/// <summary>The orders module's table of the shared InternalCommand, applied by FlowDbContext's
/// ApplyConfigurationsFromAssembly (Flow.Tool maps the same entity to tool.InternalCommands).</summary>
internal sealed class InternalCommandConfiguration : IEntityTypeConfiguration<InternalCommand>
{
    public void Configure(EntityTypeBuilder<InternalCommand> builder) => builder.ToTable("InternalCommands", "orders");
}

/// <summary>Raw SQL on tables of one name in two schemas: orders.InboxMessages here, tool.InboxMessages in
/// Flow.Tool, each its own table.</summary>
public sealed class OrdersInbox(FlowDbContext db)
{
    public int Clear() => db.Database.ExecuteSqlRaw("DELETE FROM [orders].[InboxMessages]");
}
