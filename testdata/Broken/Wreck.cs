namespace Broken;

/// <summary>Each member below carries one deliberate compile error.</summary>
public class Wreck
{
    // CS0246: the type or namespace name 'Gadget' could not be found.
    private Gadget? _gadget;

    // CS1061: 'Survivor' does not contain a definition for 'Vanish'.
    public int CallsUnknownMethod(Survivor survivor) => survivor.Vanish();

    // CS0029: cannot implicitly convert type 'string' to 'int'.
    public int Mismatch()
    {
        int count = "three";
        return count;
    }

    // CS0103: the name 'Missing' does not exist in the current context.
    public int CallsMissing()
    {
        Missing.Thing();
        return new Survivor().Ok();
    }

    public Gadget? Current => _gadget;
}
