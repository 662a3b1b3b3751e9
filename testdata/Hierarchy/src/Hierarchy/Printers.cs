namespace Hierarchy;

// Which override a call can run depends on its receiver (query/dispatch.py): `base.Name()` runs the member
// it names and no override; `Name()` on this runs an override of the object's own class line, never a
// sibling's; any other receiver may run every override. (jellyfin's Series.GetExtraOwnerIds calls
// base.GetExtraOwnerIds(): it was listed as a caller of Video's override.)
public abstract class Printer
{
    public virtual string Name() => "printer";

    // this: any printer's override.
    public string Banner() => Name().ToUpperInvariant();
}

public class LaserPrinter : Printer
{
    // base: Printer.Name only.
    public override string Name() => "laser " + base.Name();

    // this: LaserPrinter's own line (LaserPrinter, ColorLaserPrinter), never InkPrinter's.
    public string Label() => Name() + "!";
}

public sealed class ColorLaserPrinter : LaserPrinter
{
    // base: LaserPrinter.Name only.
    public override string Name() => "color " + base.Name();
}

public sealed class InkPrinter : Printer
{
    public override string Name() => "ink";

    // Another receiver: every override.
    public static string Describe(Printer printer) => printer.Name();
}
