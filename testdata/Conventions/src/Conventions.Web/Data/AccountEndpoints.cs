using Conventions.Web.Data.Accounts;
using Microsoft.EntityFrameworkCore;

namespace Conventions.Web.Data;

public static class AccountEndpoints
{
    public static IEndpointRouteBuilder MapAccounts(this IEndpointRouteBuilder app)
    {
        app.MapGet("/accounts/{name}", (string name, UserStore users) => users.FindAsync(name));
        app.MapGet("/accounts", (AccountsContext db) => db.ShopUser.CountAsync());
        return app;
    }
}
