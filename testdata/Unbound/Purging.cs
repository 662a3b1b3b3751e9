namespace Unbound.Purging;

// A handler written against another version of its mediator's interface (Contoso's MediatR 11 handlers compiled
// against MediatR 12: `Task<Unit> Handle` where the interface wants `Task`): CS0738, so no Implementation reference.
// The mediator still calls it: not unused.
public interface IRequest;

public interface IRequestHandler<in TRequest> where TRequest : IRequest
{
    Task Handle(TRequest request, CancellationToken cancellationToken);
}

public sealed record Purge(int Days) : IRequest;

internal sealed class PurgeHandler : IRequestHandler<Purge>
{
    public Task<int> Handle(Purge request, CancellationToken cancellationToken) =>
        Task.FromResult(new PurgeClock() is IPurgeClockSource ? request.Days : 0);
}

public interface IPurgeClockSource;

// An explicit implementation of an interface of a library the project does not reference (fullstackhero's test
// doubles of Finbuckle's IMultiTenantContextAccessor): private, yet it implements that interface: not unused.
internal sealed class PurgeClock : Missing.Clocks.IClock, IPurgeClockSource
{
    DateTime Missing.Clocks.IClock.Now => DateTime.UtcNow;
}
