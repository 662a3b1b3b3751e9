using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// The XML documentation of a referenced (metadata) method, found by text search in the reference's documentation
/// file. Roslyn's XmlDocumentationProvider parses the whole file on first use (System.Runtime.xml is 7.6 MB: about
/// half a second, paid by each framework a solution targets) to answer for the handful of throw helpers facts ask
/// about. The workspace takes the file beside the assembly (`X.dll` → `X.xml`) first, as read here; anything else
/// (no such file, a redirecting file, no file path) is asked of the symbol as before, so the text is the same.
/// </summary>
internal static class HelperDocs
{
    // Per documentation file: its text, or null when the symbol must be asked (missing, or a redirect).
    private static readonly ConcurrentDictionary<string, string?> Files = new(StringComparer.Ordinal);

    public static string Of(IMethodSymbol method, Compilation compilation)
    {
        if (method.ContainingAssembly is not { } assembly
            || compilation.GetMetadataReference(assembly) is not PortableExecutableReference { FilePath: { } dll }
            || method.GetDocumentationCommentId() is not { } id
            || Files.GetOrAdd(Path.ChangeExtension(dll, ".xml"), Read) is not { } text)
            return method.GetDocumentationCommentXml(expandIncludes: false) ?? "";
        var start = text.IndexOf("<member name=\"" + id + "\"", StringComparison.Ordinal);
        if (start < 0) return "";
        var end = text.IndexOf("</member>", start, StringComparison.Ordinal);
        return end < 0 ? "" : text[start..(end + "</member>".Length)];
    }

    private static string? Read(string path)
    {
        try
        {
            if (!File.Exists(path)) return null;
            var text = File.ReadAllText(path);
            // `<doc redirect="...">` (old reference assemblies) points at another file: Roslyn's reading is kept.
            return text.AsSpan(0, Math.Min(text.Length, 2048)).Contains("redirect=", StringComparison.Ordinal) ? null : text;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
