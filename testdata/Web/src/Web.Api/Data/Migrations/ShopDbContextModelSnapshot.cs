using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;

namespace Web.Api.Data.Migrations;

// Shaped like EF Core's generated snapshot: every migration repeats the model's table mappings.
[DbContext(typeof(ShopDbContext))]
internal sealed class ShopDbContextModelSnapshot : ModelSnapshot
{
    protected override void BuildModel(ModelBuilder modelBuilder)
    {
        modelBuilder.Entity("Web.Api.Data.Order", b => b.ToTable("orders"));
        modelBuilder.Entity("Web.Api.Data.AuditEntry", b => b.ToTable("audit_log", "ops"));
    }
}
