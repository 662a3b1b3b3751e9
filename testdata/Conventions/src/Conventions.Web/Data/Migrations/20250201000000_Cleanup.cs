using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Conventions.Web.Data.Migrations;

/// <summary>Kavita's IdentityAdded renamed Users to AspNetUsers and PeopleOverhaulPart1 dropped ChapterPerson: both
/// old names stayed listed as tables, though the model snapshot no longer has them.</summary>
[DbContext(typeof(ShopContext))]
[Migration("20250201000000_Cleanup")]
public partial class Cleanup : Migration
{
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        migrationBuilder.RenameTable(name: "Vendors", newName: "Suppliers");
        migrationBuilder.DropTable(name: "Discounts");
    }

    // Down undoes Up: its names are no history of the current schema.
    protected override void Down(MigrationBuilder migrationBuilder)
    {
        migrationBuilder.RenameTable(name: "Suppliers", newName: "Vendors");
        migrationBuilder.DropTable(name: "Products");
    }
}
