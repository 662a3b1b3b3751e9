namespace FastEp.Unrestored;

public sealed class PingRequest
{
    public const string Route = "/ping/{Id:int}";

    public int Id { get; set; }
}
