using Good.Core;

namespace Good.App;

public static class Runner
{
    public static int Run()
    {
        var clock = new Clock();
        clock.Tick();
        return clock.Tick();
    }
}
