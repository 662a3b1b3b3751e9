using DryIoc;

namespace Web.NoPackages;

// Sonarr's DryIoc composition (its package not restored): the app's own Add* extensions on IContainer register with
// the container, not in an IServiceCollection, so they are no registrations of one.
public static class ContainerSetup
{
    public static IContainer AddLegacyStore(this IContainer container) => container;

    public static IContainer Compose(IContainer container) => container.AddLegacyStore();
}
