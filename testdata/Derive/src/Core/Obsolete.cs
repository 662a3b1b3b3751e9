namespace Derive.Core;

public static class Obsolete
{
    public static int Answer() => 42;
}
