namespace Custom;

// bitwarden's Core, whose build could not run here: it parsed with no preprocessor symbols, so its `#if DEBUG` code read
// as inactive. A project MSBuild could not build parses as an SDK build in Debug would (DEBUG, TRACE, NET10_0...).
public static class Diagnostics
{
#if DEBUG
    public static void Verbose() { }
#endif
#if NET8_0_OR_GREATER
    public static void Modern() { }
#else
    public static void Legacy() { }
#endif
}
