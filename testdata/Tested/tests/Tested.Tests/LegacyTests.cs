using Tested.Core;

namespace Tested.Tests;

public class NUnitStyleTests
{
    [NUnit.Framework.Test]
    public void ComputesThroughTheInterface()
    {
        IPriceCalculator calculator = new PriceCalculator();
        _ = calculator.Compute(1);
    }
}

public class MSTestStyleTests
{
    [Microsoft.VisualStudio.TestTools.UnitTesting.TestMethod]
    public void ArchiveDoesNothing()
    {
        new OrderService(new PriceCalculator()).Archive();
    }
}
