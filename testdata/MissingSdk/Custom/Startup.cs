namespace Custom;

public static class Startup
{
    public static int Port => 8080;
}
