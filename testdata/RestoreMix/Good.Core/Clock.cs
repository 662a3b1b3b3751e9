namespace Good.Core;

public sealed class Clock
{
    public int Ticks { get; private set; }

    public int Tick() => ++Ticks;
}
