using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Identity;
using Microsoft.Extensions.Options;

namespace Conventions.Web.Data.Accounts;

/// <summary>Blogifier's and Kavita's Identity chain: the builder's calls register the user and sign-in managers of the
/// solution's own (a controller injecting SignInManager found no registration).</summary>
public static class IdentitySetup
{
    public static IServiceCollection AddAccounts(this IServiceCollection services)
    {
        var identity = services.AddIdentityCore<ShopUser>();  // the chain goes on from a local: its user type still known
        identity.AddUserManager<ShopUserManager>()
            .AddSignInManager<ShopSignInManager>()
            .AddEntityFrameworkStores<AccountsContext>();
        return services;
    }
}

public sealed class ShopUserManager(IUserStore<ShopUser> store, IOptions<IdentityOptions> options,
    IPasswordHasher<ShopUser> hasher, IEnumerable<IUserValidator<ShopUser>> userValidators,
    IEnumerable<IPasswordValidator<ShopUser>> passwordValidators, ILookupNormalizer normalizer,
    IdentityErrorDescriber errors, IServiceProvider services, ILogger<UserManager<ShopUser>> logger)
    : UserManager<ShopUser>(store, options, hasher, userValidators, passwordValidators, normalizer, errors, services, logger);

public sealed class ShopSignInManager(UserManager<ShopUser> users, IHttpContextAccessor context,
    IUserClaimsPrincipalFactory<ShopUser> claims, IOptions<IdentityOptions> options, ILogger<SignInManager<ShopUser>> logger,
    IAuthenticationSchemeProvider schemes, IUserConfirmation<ShopUser> confirmation)
    : SignInManager<ShopUser>(users, context, claims, options, logger, schemes, confirmation);
