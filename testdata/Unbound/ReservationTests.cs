using Xunit;

namespace Unbound;

/// <summary>A test that reaches BasketService.Reserve only through Reservations.Hold, whose call the compiler
/// cannot bind (its one candidate is Reserve). xunit is not referenced here either: [Fact] binds to nothing,
/// still a test (medium confidence).</summary>
public class ReservationTests
{
    private readonly Reservations _reservations = new(new BasketService(null!));

    [Fact]
    public void HoldsStock() => _reservations.Hold(3);
}
