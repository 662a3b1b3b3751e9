using DryIoc;
using Microsoft.EntityFrameworkCore;

namespace Web.NoPackages;

// Sonarr's DryIoc composition (its package not restored): the app's own Add* extensions on IContainer register with
// the container, not in an IServiceCollection, so they are no registrations of one.
public static class ContainerSetup
{
    public static IContainer AddLegacyStore(this IContainer container) => container;

    public static IContainer Compose(IContainer container) => container.AddLegacyStore();
}

// Ombi's `AddDbContext<OmbiContext, OmbiSqliteContext>()`: the service is the abstract context, what is made the second
// type argument.
public abstract class ReportingContext : DbContext;

public sealed class SqliteReportingContext : ReportingContext;

public static class ReportingSetup
{
    // Microsoft.FeatureManagement (not referenced here) reads FeatureManagement:Reports for both.
    [FeatureGate("Reports")]
    public static Task<bool> ReportsOn(IFeatureManager features) => features.IsEnabledAsync("Reports");

    public static IServiceCollection AddReporting(this IServiceCollection services) =>
        services.AddDbContext<ReportingContext, SqliteReportingContext>();
}
