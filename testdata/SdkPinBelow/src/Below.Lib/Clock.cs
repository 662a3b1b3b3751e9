namespace Below.Lib;

public interface IClock
{
    System.DateOnly Today();
}

public sealed class SystemClock : IClock
{
    public System.DateOnly Today() => System.DateOnly.FromDateTime(System.DateTime.UtcNow);
}
