using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Conventions.Web.Data.Migrations;

/// <summary>EF Core finds migrations by reflection over the DbContext's assembly: nothing names this class.</summary>
[DbContext(typeof(ShopContext))]
[Migration("20250101000000_Initial")]
public partial class Initial : Migration
{
    protected override void Up(MigrationBuilder migrationBuilder) =>
        migrationBuilder.CreateTable(name: "Products", columns: table => new { Id = table.Column<int>(nullable: false) },
            constraints: table => table.PrimaryKey("PK_Products", x => x.Id));

    protected override void Down(MigrationBuilder migrationBuilder) => migrationBuilder.DropTable(name: "Products");
}
