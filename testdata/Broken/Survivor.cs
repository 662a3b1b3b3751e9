namespace Broken;

/// <summary>A valid class in a project that does not compile; it must still be indexed.</summary>
public class Survivor
{
    public int Ok() => 1;

    /// <summary>Calls <see cref="Ok"/> twice.</summary>
    public int Twice() => Ok() + Ok();
}
