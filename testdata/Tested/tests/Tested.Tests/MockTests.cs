using Moq;
using Tested.Core;

namespace Tested.Tests;

/// <summary>A mock's setup names IPriceCalculator.Compute in an expression tree: a reference, not a call (the test
/// never runs Compute; eShopOnContainers' mock setups were listed as callers).</summary>
public class MockTests
{
    [Xunit.Fact]
    public void SetsUpTheCalculator()
    {
        var calculator = new Mock<IPriceCalculator>();
        calculator.Setup(c => c.Compute(2));
        calculator.Verify(c => c.Compute(3));
    }
}
