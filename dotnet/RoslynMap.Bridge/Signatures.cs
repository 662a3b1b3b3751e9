using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge;

/// <summary>
/// Declaration headers as written in source: no attributes, body, initializer or trivia;
/// any run of whitespace or comments between tokens becomes one space.
/// </summary>
internal static class Signatures
{
    public static string For(SyntaxNode decl, ISymbol symbol) => decl switch
    {
        BaseTypeDeclarationSyntax t => Header(t, t.AttributeLists, BeforeBody(t.OpenBraceToken, t.SemicolonToken(), t)),
        DelegateDeclarationSyntax d => Header(d, d.AttributeLists, d.SemicolonToken.GetPreviousToken()),
        BaseMethodDeclarationSyntax m => Header(m, m.AttributeLists, MethodHeaderEnd(m)),
        PropertyDeclarationSyntax p => Header(p, p.AttributeLists, p.Identifier) + Accessors(p),
        IndexerDeclarationSyntax i => Header(i, i.AttributeLists, i.ParameterList.CloseBracketToken) + Accessors(i),
        EventDeclarationSyntax e => Header(e, e.AttributeLists, e.Identifier),
        VariableDeclaratorSyntax v when v.Parent?.Parent is BaseFieldDeclarationSyntax f =>
            Join(Header(f, f.AttributeLists, f.Declaration.Type.GetLastToken()), v.Identifier.Text),
        EnumMemberDeclarationSyntax em => em.Identifier.Text,
        _ => symbol.ToDisplayString(SymbolDisplayFormat.CSharpShortErrorMessageFormat),
    };

    /// <summary>Primary constructor of a record, class or struct: `public Order(Guid Id, string Customer)`.</summary>
    public static string PrimaryConstructor(TypeDeclarationSyntax type, IMethodSymbol ctor) =>
        SymbolFacts.Visibility(ctor) + " " + type.Identifier.Text + Tokens(type.ParameterList!.GetFirstToken(), type.ParameterList.GetLastToken());

    /// <summary>Positional record property, written the way the compiler synthesizes it.</summary>
    public static string PositionalProperty(ParameterSyntax parameter, IPropertySymbol property)
    {
        var type = parameter.Type is null ? property.Type.ToDisplayString() : Tokens(parameter.Type.GetFirstToken(), parameter.Type.GetLastToken());
        var setter = property.SetMethod is null ? "" : property.SetMethod.IsInitOnly ? " init;" : " set;";
        return $"{SymbolFacts.Visibility(property)} {type} {property.Name} {{ get;{setter} }}";
    }

    public static string TopLevelMain(IMethodSymbol main) =>
        "static " + main.ReturnType.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat) + " <Main>$(string[] args)";

    private static string Header(SyntaxNode decl, SyntaxList<AttributeListSyntax> attributes, SyntaxToken last)
    {
        var first = attributes.Count > 0 ? attributes[^1].GetLastToken().GetNextToken() : decl.GetFirstToken();
        return Tokens(first, last);
    }

    private static SyntaxToken BeforeBody(SyntaxToken openBrace, SyntaxToken semicolon, SyntaxNode decl)
    {
        if (openBrace.RawKind != 0 && !openBrace.IsMissing) return openBrace.GetPreviousToken();
        if (semicolon.RawKind != 0 && !semicolon.IsMissing) return semicolon.GetPreviousToken();
        return decl.GetLastToken();
    }

    private static SyntaxToken SemicolonToken(this BaseTypeDeclarationSyntax t) => t switch
    {
        TypeDeclarationSyntax td => td.SemicolonToken,
        EnumDeclarationSyntax ed => ed.SemicolonToken,
        _ => default,
    };

    private static SyntaxToken MethodHeaderEnd(BaseMethodDeclarationSyntax m)
    {
        if (m is MethodDeclarationSyntax { ConstraintClauses.Count: > 0 } md) return md.ConstraintClauses[^1].GetLastToken();
        return m.ParameterList.GetLastToken();
    }

    private static string Accessors(BasePropertyDeclarationSyntax p)
    {
        if (p.AccessorList is { } list)
        {
            var sb = new StringBuilder(" {");
            foreach (var a in list.Accessors)
            {
                sb.Append(' ');
                foreach (var mod in a.Modifiers) sb.Append(mod.Text).Append(' ');
                sb.Append(a.Keyword.Text).Append(';');
            }
            return sb.Append(" }").ToString();
        }
        // Expression-bodied properties and indexers are get-only.
        return " { get; }";
    }

    private static string Join(string head, string tail) => head.Length == 0 ? tail : head + " " + tail;

    /// <summary>Token texts from first to last inclusive, one space wherever trivia separated them.</summary>
    public static string Tokens(SyntaxToken first, SyntaxToken last)
    {
        var sb = new StringBuilder(64);
        var token = first;
        var end = last.Span.End;
        var previous = default(SyntaxToken);
        while (token.RawKind != 0 && token.SpanStart < end)
        {
            if (!token.IsMissing)
            {
                if (sb.Length > 0 && (previous.HasTrailingTrivia || token.HasLeadingTrivia)) sb.Append(' ');
                sb.Append(token.Text);
                previous = token;
            }
            token = token.GetNextToken(includeZeroWidth: false);
        }
        return sb.ToString();
    }
}
