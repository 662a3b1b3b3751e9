using Microsoft.AspNetCore.Identity;
using Microsoft.AspNetCore.Identity.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore;

namespace Conventions.Web.Data.Accounts;

/// <summary>Kavita's DataContext: an Identity context declaring `DbSet&lt;AppUser&gt; AppUser` beside the `Users` it
/// inherits. Identity's OnModelCreating maps the user to AspNetUsers (the model snapshot says so): AppUser was listed
/// as a table of its own, and AspNetUsers had no code.</summary>
public sealed class AccountsContext(DbContextOptions<AccountsContext> options) : IdentityUserContext<ShopUser>(options)
{
    public DbSet<ShopUser> ShopUser => Set<ShopUser>();

    protected override void OnModelCreating(ModelBuilder builder)
    {
        base.OnModelCreating(builder);
        builder.Ignore<IdentityUserToken<string>>(); // the inherited UserTokens has no table
    }
}

public sealed class ShopUser : IdentityUser;

public sealed class UserStore(AccountsContext context)
{
    public Task<ShopUser?> FindAsync(string name) => context.Users.FirstOrDefaultAsync(u => u.UserName == name);
}
