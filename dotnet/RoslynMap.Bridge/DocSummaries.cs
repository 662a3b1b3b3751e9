using System.Net;
using System.Text;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace RoslynMap.Bridge;

/// <summary>
/// The text of a declaration's &lt;summary&gt; doc comment, whitespace collapsed. Read from trivia
/// rather than ISymbol.GetDocumentationCommentXml so it works whatever DocumentationMode the
/// project was parsed with.
/// </summary>
internal static partial class DocSummaries
{
    public static string For(SyntaxNode decl)
    {
        StringBuilder? text = null;
        foreach (var trivia in decl.GetLeadingTrivia())
        {
            var kind = trivia.Kind();
            var isDoc = kind is SyntaxKind.SingleLineDocumentationCommentTrivia or SyntaxKind.MultiLineDocumentationCommentTrivia
                || (kind == SyntaxKind.SingleLineCommentTrivia && trivia.ToString().StartsWith("///", StringComparison.Ordinal));
            if (!isDoc) continue;
            (text ??= new StringBuilder()).Append(trivia.ToFullString()).Append('\n');
        }
        return text is null ? "" : Extract(text.ToString());
    }

    private static string Extract(string raw)
    {
        var body = DocExterior().Replace(raw, " ");
        var summary = Summary().Match(body);
        if (!summary.Success) return "";
        var inner = RefTag().Replace(summary.Groups[1].Value, m => CrefText(m.Groups[2].Value));
        inner = AnyTag().Replace(inner, " ");
        return Whitespace().Replace(WebUtility.HtmlDecode(inner), " ").Trim();
    }

    // cref="T:Shop.Order" → Shop.Order; cref="Order.Place(int)" stays as written.
    private static string CrefText(string value) =>
        value.Length > 2 && value[1] == ':' ? value[2..] : value;

    [GeneratedRegex(@"(^|\n)[ \t]*(///|/\*\*|\*/|\*)", RegexOptions.CultureInvariant)]
    private static partial Regex DocExterior();

    [GeneratedRegex(@"<summary\s*>(.*?)</summary\s*>", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex Summary();

    [GeneratedRegex(@"<(see|seealso|paramref|typeparamref)\s+(?:cref|name|langword|href)\s*=\s*""([^""]*)""\s*/?>(?:\s*</\1>)?", RegexOptions.CultureInvariant)]
    private static partial Regex RefTag();

    [GeneratedRegex(@"<[^>]*>")]
    private static partial Regex AnyTag();

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();
}
