namespace Mobile;

public sealed class Orphan
{
}
