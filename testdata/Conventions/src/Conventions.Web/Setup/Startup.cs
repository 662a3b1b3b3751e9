using System.Runtime.CompilerServices;
using Microsoft.VisualStudio.TestTools.UnitTesting;

namespace Conventions.Web.Setup;

internal static class ModuleSetup
{
    /// <summary>The runtime runs it when the module loads.</summary>
    [ModuleInitializer]
    internal static void Initialize() => AppContext.SetSwitch("Conventions.Ready", true);
}

[TestClass]
public sealed class AssemblyFixture
{
    /// <summary>MSTest runs it once before the assembly's tests (eShopOnWeb's ProgramTest.AssemblyInitialize).</summary>
    [AssemblyInitialize]
    public static void Start(TestContext context) => context.WriteLine("start");
}

public static class Pricing
{
    // Nothing calls it: truly unused.
    public static decimal Discount(decimal price) => price * 0.9m;
}
