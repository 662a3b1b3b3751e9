namespace Lib.Specs;

public static class ClientSpecs
{
    public static int Attempts() => new Client().Retry(2);
}
