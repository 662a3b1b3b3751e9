using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Conventions.Web.Data.Accounts.Migrations;

/// <summary>The application had its own Users table before Identity (Kavita's IdentityAdded).</summary>
[DbContext(typeof(AccountsContext))]
[Migration("20250301000000_Accounts")]
public partial class Accounts : Migration
{
    protected override void Up(MigrationBuilder migrationBuilder) =>
        migrationBuilder.RenameTable(name: "Users", newName: "AspNetUsers");

    protected override void Down(MigrationBuilder migrationBuilder) =>
        migrationBuilder.RenameTable(name: "AspNetUsers", newName: "Users");
}
