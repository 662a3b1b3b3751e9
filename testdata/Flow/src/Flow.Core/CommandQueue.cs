namespace Flow.Core.Queueing;

// Radarr's command queue: Push stores the command, and a worker later builds the IExecute<TCommand> for the command's
// type and calls Execute. No call edge goes from Push to a handler; the queue is linked by its types instead
// (query/queues.py): Push<TCommand> takes TCommand constrained to Command, as IExecute<TCommand> is.
public abstract class Command
{
}

public interface IExecute<TCommand> where TCommand : Command
{
    void Execute(TCommand message);
}

public sealed class RefreshCatalogCommand : Command
{
}

public sealed class ReindexCommand : Command
{
}

public sealed class CommandQueue
{
    private readonly Queue<Command> _queue = new();
    private readonly Func<Type, object> _build;

    public CommandQueue(Func<Type, object> build) => _build = build;

    public void Push<TCommand>(TCommand command) where TCommand : Command => _queue.Enqueue(command);

    public void Drain()
    {
        while (_queue.Count > 0)
        {
            Run((dynamic)_queue.Dequeue());
        }
    }

    private void Run<TCommand>(TCommand command) where TCommand : Command =>
        ((IExecute<TCommand>)_build(typeof(IExecute<TCommand>))).Execute(command);
}

public sealed class RefreshCatalogService : IExecute<RefreshCatalogCommand>
{
    public void Execute(RefreshCatalogCommand message)
    {
    }
}

public sealed class ReindexService : IExecute<ReindexCommand>
{
    public void Execute(ReindexCommand message)
    {
    }
}

// A helper of the solution's own that hands its command on: a queue too (same constraint), so its callers push.
public sealed class Scheduler(CommandQueue queue)
{
    public void Schedule<TCommand>(TCommand command) where TCommand : Command => queue.Push(command);

    public void Nightly() => Schedule(new ReindexCommand());
}
