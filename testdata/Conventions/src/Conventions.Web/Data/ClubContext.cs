using Microsoft.EntityFrameworkCore;

namespace Conventions.Web.Data;

/// <summary>A base context of the solution's own whose DbSet is of a type parameter: no table of its own (as a generic
/// repository's `DbSet&lt;T&gt;`), but each context deriving from it has one, named after the DbSet.</summary>
public abstract class TenantContext<TMember>(DbContextOptions options) : DbContext(options) where TMember : class
{
    public DbSet<TMember> Members => Set<TMember>();
}

public sealed class ClubContext(DbContextOptions<ClubContext> options) : TenantContext<ClubMember>(options);

public sealed class ClubMember
{
    public int Id { get; set; }
}
