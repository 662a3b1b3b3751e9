using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// The XML documentation of a referenced (metadata) throw helper, read from the reference's documentation file.
/// Roslyn's XmlDocumentationProvider parses the whole file on first use (System.Runtime.xml is 7.6 MB: about half a
/// second, paid by each framework a solution targets) to answer for the handful of helpers facts ask about. The
/// workspace takes the file beside the assembly (`X.dll` → `X.xml`) first, as read here: one pass keeps the members
/// whose id names a throw helper or a guard (the last of a duplicated id, as Roslyn does), and the text is dropped.
/// Anything else (no such file, a redirecting or unreadable one, no file path, another id) is asked of the symbol.
/// </summary>
internal static class HelperDocs
{
    private const string Open = "<member name=\"";
    private const string Close = "</member>";

    // Per documentation file: helper member id -> its element, or null when the symbol must be asked.
    private static readonly ConcurrentDictionary<string, Dictionary<string, string>?> Files = new(StringComparer.Ordinal);

    public static string Of(IMethodSymbol method, Compilation compilation)
    {
        if (method.ContainingAssembly is { } assembly
            && compilation.GetMetadataReference(assembly) is PortableExecutableReference { FilePath: { } dll }
            && method.GetDocumentationCommentId() is { } id && IsHelper(id)
            && Files.GetOrAdd(Path.ChangeExtension(dll, ".xml"), Read) is { } members)
            return members.GetValueOrDefault(id, "");
        return method.GetDocumentationCommentXml(expandIncludes: false) ?? "";
    }

    private static bool IsHelper(string id) =>
        id.Contains("Throw", StringComparison.OrdinalIgnoreCase) || id.Contains("Guard", StringComparison.OrdinalIgnoreCase);

    private static Dictionary<string, string>? Read(string path)
    {
        string text;
        try
        {
            if (!File.Exists(path)) return null;
            text = File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
        // `<doc redirect="...">` (old reference assemblies) points at another file: Roslyn's reading is kept.
        if (text.AsSpan(0, Math.Min(text.Length, 2048)).Contains("redirect=", StringComparison.Ordinal)) return null;
        var members = new Dictionary<string, string>(StringComparer.Ordinal);
        for (var at = text.IndexOf(Open, StringComparison.Ordinal); at >= 0; at = text.IndexOf(Open, at + Open.Length, StringComparison.Ordinal))
        {
            var nameEnd = text.IndexOf('"', at + Open.Length);
            if (nameEnd < 0) break;
            var id = text[(at + Open.Length)..nameEnd];
            if (!IsHelper(id)) continue;
            var end = text.IndexOf(Close, nameEnd, StringComparison.Ordinal);
            if (end < 0) break;
            members[id] = text[at..(end + Close.Length)];
        }
        return members;
    }
}
