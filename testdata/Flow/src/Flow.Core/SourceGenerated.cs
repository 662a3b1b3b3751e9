namespace Flow.Core.SourceGenerated;

// martinothamar/Mediator's shape (fullstackhero's starter kit): a source-generated mediator whose ICommandHandler and
// IQueryHandler are its own handler interfaces, not MediatR's IRequestHandler, returning ValueTask. Every endpoint's
// trace stopped at `no_handler` and every handler had 0 endpoints and 0 tests.
public interface IMessage;

public interface ICommand<out TResponse> : IMessage;

public interface IQuery<out TResponse> : IMessage;

public interface ICommandHandler<in TCommand, TResponse> where TCommand : ICommand<TResponse>
{
    ValueTask<TResponse> Handle(TCommand command, CancellationToken cancellationToken);
}

public interface IQueryHandler<in TQuery, TResponse> where TQuery : IQuery<TResponse>
{
    ValueTask<TResponse> Handle(TQuery query, CancellationToken cancellationToken);
}

public interface IMediator
{
    ValueTask<TResponse> Send<TResponse>(ICommand<TResponse> command, CancellationToken cancellationToken = default);

    ValueTask<TResponse> Send<TResponse>(IQuery<TResponse> query, CancellationToken cancellationToken = default);
}

public sealed record CreateBrandCommand(string Name) : ICommand<Guid>;

public sealed class CreateBrandCommandHandler : ICommandHandler<CreateBrandCommand, Guid>
{
    public ValueTask<Guid> Handle(CreateBrandCommand command, CancellationToken cancellationToken) =>
        ValueTask.FromResult(Guid.Empty);
}

public sealed record GetBrandQuery(Guid Id) : IQuery<string>;

public sealed class GetBrandQueryHandler : IQueryHandler<GetBrandQuery, string>
{
    public ValueTask<string> Handle(GetBrandQuery query, CancellationToken cancellationToken) =>
        ValueTask.FromResult(query.Id.ToString());
}

public static class BrandEndpoints
{
    public static async Task<Guid> CreateAsync(IMediator mediator, string name) =>
        await mediator.Send(new CreateBrandCommand(name));

    public static ValueTask<string> GetAsync(IMediator mediator, Guid id) => mediator.Send(new GetBrandQuery(id));
}
