namespace Hierarchy.Resources;

// A REST base class whose helpers call an abstract member on this (Radarr's RestController<TResource>). Entered from
// a member of MovieController on this, the helpers run on a MovieController (or a class deriving from it): their
// GetById runs MovieController's override, never TagController's or QueueController's (query/dispatch.py Objects).
public abstract class RestController<T>
{
    protected abstract T GetById(int id);

    public T GetWithErrorHandler(int id) => GetById(id);

    protected T Created(int id) => Load(id);

    // A second level on this: the object is still the one Created ran on.
    private T Load(int id) => this.GetById(id);
}

public class MovieController : RestController<string>
{
    protected override string GetById(int id) => "m" + id;

    public string Add(int id) => Created(id);

    public string Again(int id) => base.Created(id);

    // Another receiver: a TagController, not this object.
    public int Peek(TagController other, int id) => other.GetWithErrorHandler(id);
}

// No override of its own: its nearest base's (MovieController's) runs.
public class ArchiveController : MovieController
{
    public string Restore(int id) => Created(id);
}

// Its own override hides MovieController's.
public class PinnedController : MovieController
{
    protected override string GetById(int id) => "p" + id;

    public string Pin(int id) => Created(id);
}

public class TagController : RestController<int>
{
    protected override int GetById(int id) => id;
}

public class QueueController : RestController<long>
{
    protected override long GetById(int id) => id;
}
