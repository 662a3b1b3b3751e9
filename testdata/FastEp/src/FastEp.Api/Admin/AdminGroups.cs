using FastEndpoints;

namespace FastEp.Api.Admin;

/// <summary>A group: its endpoints' routes start with `admin`.</summary>
public sealed class Administration : Group
{
    public Administration()
    {
        Configure("admin", ep => ep.Description(x => x.WithTags("admin")));
    }
}

/// <summary>A group inside a group: `admin/reports`.</summary>
public sealed class Reports : SubGroup<Administration>
{
    public Reports()
    {
        Configure("reports", ep => { });
    }
}
