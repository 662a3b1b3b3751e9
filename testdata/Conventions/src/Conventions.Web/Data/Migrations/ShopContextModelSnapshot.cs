using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;

namespace Conventions.Web.Data.Migrations;

[DbContext(typeof(ShopContext))]
internal partial class ShopContextModelSnapshot : ModelSnapshot
{
    protected override void BuildModel(ModelBuilder modelBuilder) =>
        modelBuilder.Entity("Conventions.Web.Data.Product", b => b.HasKey("Id"));
}
