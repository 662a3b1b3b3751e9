namespace Lib;

// Newtonsoft.Json's LinqBridge.cs: code compiled only for another framework of the project. Indexed for net10.0,
// the NET46 branch is inactive: nothing binds there, and roslynmap names what it declares rather than nothing.
#if NET46
public static class LegacyEnumerable
{
    public static void Reset() { }
}
#else
public static class ModernEnumerable
{
    public static void Reset() { }
}
#endif

public static class Clock
{
#if NET46 && !DEBUG
    public static void Legacy() { }
#elif NET46
    public static void LegacyDebug() { }
#endif
}
