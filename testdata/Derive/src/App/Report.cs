namespace Derive.App;

public static class Report
{
    public static string Print(Checkout checkout) => checkout.Run().Trim();
}
