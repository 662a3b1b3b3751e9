using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Web.Api.Data.Migrations;

[DbContext(typeof(ShopDbContext))]
[Migration("20240101000000_Initial")]
internal sealed partial class Initial
{
    protected override void BuildTargetModel(ModelBuilder modelBuilder)
    {
        modelBuilder.Entity("Web.Api.Data.Order", b => b.ToTable("orders"));
        modelBuilder.Entity("Web.Api.Data.AuditEntry", b => b.ToTable("audit_log", "ops"));
    }
}

internal sealed partial class Initial : Migration
{
    protected override void Up(MigrationBuilder migrationBuilder) => migrationBuilder.Sql("UPDATE orders SET Total = 0 WHERE Total IS NULL");
}
