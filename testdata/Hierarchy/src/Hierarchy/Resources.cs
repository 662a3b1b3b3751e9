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

    // Called on another receiver (ResourceClient.Reloaded): two levels of this calls below it.
    public T Reload(int id) => Load(id);
}

public class MovieController : RestController<string>
{
    protected override string GetById(int id) => "m" + id;

    public string Add(int id) => Created(id);

    public string Again(int id) => base.Created(id);

    // Another receiver, typed TagController: the base's helper runs on a TagController, not on this object.
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

// Calls on other receivers: the receiver's static type (a ReceiverType fact at the call) is the object the base's
// members run on, as `this` is for a call from a controller's own member.
public static class ResourceClient
{
    // Typed as the base class itself: any controller, every override.
    public static int Any(RestController<int> any, int id) => any.GetWithErrorHandler(id);

    // A class overriding nothing: its nearest base's override (MovieController's), not PinnedController's.
    public static string Archived(ArchiveController archive, int id) => archive.GetWithErrorHandler(id);

    // Two levels of this calls below the typed call: Reload -> Load -> GetById.
    public static string Reloaded(ArchiveController archive, int id) => archive.Reload(id);

    // Two receivers typed as two controllers: either's override.
    public static long Both(TagController tag, QueueController queue, int id) =>
        tag.GetWithErrorHandler(id) + queue.GetWithErrorHandler(id);

    // A typed receiver beside one typed as the base: that one may be any controller.
    public static long Mixed(TagController tag, RestController<int> any, int id) =>
        tag.GetWithErrorHandler(id) + any.GetWithErrorHandler(id);
}
