using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;

namespace Conventions.Web.Data.Migrations;

[DbContext(typeof(ShopContext))]
internal partial class ShopContextModelSnapshot : ModelSnapshot
{
    protected override void BuildModel(ModelBuilder modelBuilder)
    {
        // A real snapshot writes ToTable for every entity, under its default name too.
        modelBuilder.Entity("Conventions.Web.Data.Product", b =>
        {
            b.HasKey("Id");
            b.ToTable("Products");
        });
        // SimplCommerce registers its entities by reflection: only the snapshot names Supplier's table, by a string.
        modelBuilder.Entity("Conventions.Web.Data.Supplier", b => b.ToTable("Suppliers"));
    }
}
