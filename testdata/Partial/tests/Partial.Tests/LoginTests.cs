using Foundatio.Mediator;  // not restored
using Partial.Web;
using Partial.Web.Orders;
using Xunit;

namespace Partial.Tests;

public class LoginTests
{
    [Fact]
    public async Task LogsIn() => await new LoginService(new TestOAuthProviderClient()).LoginAsync("code");

    [Fact]
    public async Task GetsAnOrder()
    {
        IMediator mediator = null!;
        await mediator.InvokeAsync<string>(new GetOrder(1));
    }
}
