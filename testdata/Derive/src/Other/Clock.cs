namespace Derive.Other;

public class Clock
{
    public DateTime Now() => DateTime.UtcNow;

    public int Hour() => Now().Hour;
}
