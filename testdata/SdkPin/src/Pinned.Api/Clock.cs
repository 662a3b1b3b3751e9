namespace Pinned.Api;

public interface IClock
{
    DateOnly Today();
}

public sealed class SystemClock : IClock
{
    public DateOnly Today() => DateOnly.FromDateTime(DateTime.UtcNow);
}
