namespace Conventions.Web.Setup;

// Avalonia.Samples' ShapeType: listed by Enum.GetValues<T>(), each member shown by a template keyed by its name, none
// named in code. Listing or parsing an enum reaches every member.
public enum Shade { Light, Dark }

// Parsed from text: Sms is never named, yet `Parse("Sms")` returns it.
public enum Channel { Email, Sms }

// Nothing lists or parses it, no property holds it (a deserializer could make Large): Large, never named, is unused.
public enum Size { Small, Large }

public static class Palette
{
    public static Shade[] Shades() => Enum.GetValues<Shade>();

    public static Channel Parse(string text) => Enum.TryParse(text, out Channel channel) ? channel : Channel.Email;

    public static Size Default() => Size.Small;
}

// A property's body comparing with a member is no property holding the enum: Closed, never named, is unused.
public enum Door { Open, Closed }

public sealed class Gate
{
    public bool IsOpen => Door.Open == Current();

    public static Door Current() => Door.Open;
}

// SimplCommerce's EnumHelper.ToDictionary(typeof(OrderStatus)): a helper handing the Type it is given to
// Enum.GetNames lists every member of the enum its caller names, none by name: Warm and Cool are reached.
public enum Tone { Warm, Cool }

// Nothing hands Finish to a helper (Count names it on another line): Gloss, never named, is unused.
public enum Finish { Matte, Gloss }

public static class Labels
{
    public static string[] Of(Type type) => Enum.GetNames(type);

    public static int Count()
    {
        var finish = Finish.Matte;
        return Of(typeof(Tone)).Length + (int)finish;
    }
}
