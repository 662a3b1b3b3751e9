namespace Lib.Web;

/// <summary>Kavita's OPDS feed: XmlSerializer and Json.NET call `ShouldSerialize{Property}()` by name.</summary>
public class Feed
{
    public int Total { get; set; }

    public bool ShouldSerializeTotal() => Total > 0;

    /// <summary>No property is named Nothing: no serializer calls it.</summary>
    public bool ShouldSerializeNothing() => false;

    /// <summary>Lib's inactive branch calls a FlushLegacy of Lib's own: not this one (Lib does not reference Lib.Web).</summary>
    internal static void FlushLegacy()
    {
    }
}
