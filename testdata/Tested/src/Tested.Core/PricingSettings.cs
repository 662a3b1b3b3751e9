using Microsoft.Extensions.Configuration;

namespace Tested.Core;

/// <summary>A library reading a key its hosts define: Tested.Api in its appsettings.json, and Tested.Tests
/// (a host of its own, with appsettings.test.json) runs Tested.Api in process, so Tested.Api's count for it.</summary>
public static class PricingSettings
{
    public static decimal Factor(IConfiguration configuration) => configuration.GetValue<decimal>("Pricing:Factor");
}
