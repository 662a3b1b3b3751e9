using System.Diagnostics.CodeAnalysis;

namespace Web.Api.Infrastructure;

/// <summary>A throw helper of the solution: callers throw what it throws.</summary>
public static class Guard
{
    public static void AgainstEmpty(string? value, string name)
    {
        if (string.IsNullOrEmpty(value)) Fail(name);
    }

    [DoesNotReturn]
    private static void Fail(string name) => throw new ArgumentException("empty", name);
}

public sealed class CouponService
{
    public decimal Apply(string? code, decimal total)
    {
        Guard.AgainstEmpty(code, nameof(code));
        return total > 0 ? total * 0.9m : throw new InvalidOperationException("nothing to discount");
    }
}

/// <summary>Hangfire's AutomaticRetryAttribute: its setter validates. `[Retry(Attempts = 0)]` sets it when something
/// reads the attribute by reflection, never when the member it decorates runs.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class RetryAttribute : Attribute
{
    private int _attempts;

    public int Attempts
    {
        get => _attempts;
        set => _attempts = value >= 0 ? value : throw new ArgumentOutOfRangeException(nameof(value));
    }
}

public static class RetriedJobs
{
    [Retry(Attempts = 0)]
    public static bool Work() => true;
}
