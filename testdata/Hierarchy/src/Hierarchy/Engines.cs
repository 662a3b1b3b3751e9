namespace Hierarchy;

// Ombi's MovieRequestEngine : BaseMediaEngine, IMovieRequestEngine: the interface's Subscribe is implemented by a method
// the class inherits from a base that does not implement the interface itself. A call through the interface reaches
// EngineBase.Subscribe (its callers, its tests); it is not unused.
public interface IEngine
{
    void Subscribe(int id);
}

public abstract class EngineBase
{
    public void Subscribe(int id)
    {
    }
}

public sealed class MovieEngine : EngineBase, IEngine
{
}

public static class EngineUse
{
    public static void Run(IEngine engine) => engine.Subscribe(1);
}
