using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Code a document holds for another build than the one indexed: a multi-targeted library indexed for net10.0 has
/// `#if NET46` branches (Newtonsoft.Json's LinqBridge.cs: 3,000 lines under `#if !HAVE_LINQ`, inactive for every
/// modern framework). Nothing binds there, so its declarations are no symbols; but an agent must not read such a
/// file as empty. One InactiveCode fact per inactive branch: key the branch's directive (`#if NET46`, `#else` of
/// `#if DEBUG`), detail its last line and what it declares, read by parsing the file again with that branch taken.
/// </summary>
internal static class InactiveCodeFacts
{
    private const int MaxDeclarations = 500;  // named per branch (all are counted): LinqBridge.cs declares 250
    private const int MaxSymbols = 10;        // a condition naming more is not solved (2^10 tries)
    private const int MaxNames = 200;         // members a branch uses, the first ones

    public static void Add(FactSink sink, SyntaxTree tree, string? from)
    {
        if (tree.GetRoot() is not CompilationUnitSyntax { ContainsDirectives: true } root
            || tree.Options is not CSharpParseOptions options) return;
        var text = tree.GetText();
        if (!HasConditional(text)) return;
        var reparsed = new Dictionary<string, SyntaxNode>(StringComparer.Ordinal);
        foreach (var (chain, at) in NotTaken(root))
        {
            var directive = chain[at];
            var start = directive.FullSpan.End;
            var end = chain[at + 1].FullSpan.Start;
            if (end <= start) continue;
            var detail = new FactDetail().Add("end_line", sink.LineOf(Math.Max(start, end - 1)));
            // The names the branch uses (Dapper's `#if ENTITY_FRAMEWORK SkipIfMsDataClient(); #endif` in tests built
            // only for net481): no reference binds there, so a member named only there is not "unused".
            if (Names(text, start, end) is { Count: > 0 } names) detail.Add("names", names);
            // Inside a member's body a branch declares no type or member: no parse again (most branches are there).
            if (!InBody(directive) && MayDeclare(text, start, end)
                && Taken(chain, at, options.PreprocessorSymbolNames) is { } symbols)
            {
                var key = string.Join(";", symbols.Order(StringComparer.Ordinal));
                if (!reparsed.TryGetValue(key, out var other))
                    reparsed[key] = other = CSharpSyntaxTree.ParseText(text, options.WithPreprocessorSymbols(symbols)
                        .WithDocumentationMode(DocumentationMode.None)).GetRoot();  // declarations only: no doc comments
                var (named, count) = Declarations(sink, other, start, end);
                detail.Add("declares", named).Add("declared", count);
            }
            sink.Add(FactKinds.InactiveCode, from, start, Confidence.High, Describe(chain, at), detail);
        }
    }

    /// <summary>The members a branch's text uses (the first MaxNames distinct, in order of appearance), lexed without
    /// parsing: an identifier called (`Name(`, `Name&lt;`) or accessed (`.Name`), not one declared (`void Name(`, after a
    /// type), nor a local, a parameter or a type named alone. Keywords, literals and comments are no identifiers.</summary>
    private static List<string> Names(Microsoft.CodeAnalysis.Text.SourceText text, int start, int end)
    {
        var names = new List<string>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var tokens = SyntaxFactory.ParseTokens(text.ToString(Microsoft.CodeAnalysis.Text.TextSpan.FromBounds(start, end))).ToList();
        for (var i = 0; i < tokens.Count && names.Count < MaxNames; i++)
        {
            if (!tokens[i].IsKind(SyntaxKind.IdentifierToken)) continue;
            var previous = i > 0 ? tokens[i - 1].Kind() : SyntaxKind.None;
            var next = i + 1 < tokens.Count ? tokens[i + 1].Kind() : SyntaxKind.None;
            var accessed = previous is SyntaxKind.DotToken;  // `.Name` (and `?.Name`: `?` then `.`)
            var called = next is SyntaxKind.OpenParenToken or SyntaxKind.LessThanToken;
            var declared = previous is SyntaxKind.IdentifierToken or SyntaxKind.GreaterThanToken or SyntaxKind.CloseBracketToken
                or SyntaxKind.QuestionToken or SyntaxKind.AsteriskToken || SyntaxFacts.IsPredefinedType(previous);
            if ((accessed || (called && !declared)) && seen.Add(tokens[i].ValueText)) names.Add(tokens[i].ValueText);
        }
        return names;
    }

    /// <summary>Each branch not taken, with its `#if`...`#endif` chain, in one pass over the trivia (Roslyn's
    /// GetNextDirective and GetRelatedDirectives walk the tokens again for every directive).</summary>
    private static IEnumerable<(List<DirectiveTriviaSyntax> Chain, int At)> NotTaken(CompilationUnitSyntax root)
    {
        var open = new Stack<List<DirectiveTriviaSyntax>>();
        foreach (var trivia in root.DescendantTrivia(node => node.ContainsDirectives))
        {
            if (!trivia.IsDirective || trivia.GetStructure() is not DirectiveTriviaSyntax { IsActive: true } directive) continue;
            switch (directive)
            {
                case IfDirectiveTriviaSyntax:
                    open.Push([directive]);
                    break;
                case ElifDirectiveTriviaSyntax or ElseDirectiveTriviaSyntax when open.Count > 0:
                    open.Peek().Add(directive);
                    break;
                case EndIfDirectiveTriviaSyntax when open.Count > 0:
                    var chain = open.Pop();
                    chain.Add(directive);
                    for (var at = 0; at < chain.Count - 1; at++)
                        if (chain[at] is BranchingDirectiveTriviaSyntax { BranchTaken: false }) yield return (chain, at);
                    break;
            }
        }
    }

    /// <summary>Whether a line starts with `#if` (a document with only `#region`, `#pragma` or `#nullable` has
    /// directives but no branch), read without copying the text.</summary>
    private static bool HasConditional(Microsoft.CodeAnalysis.Text.SourceText text)
    {
        foreach (var line in text.Lines)
        {
            var i = line.Start;
            while (i < line.End && char.IsWhiteSpace(text[i])) i++;
            if (i + 2 < line.End && text[i] == '#' && text[i + 1] == 'i' && text[i + 2] == 'f') return true;
        }
        return false;
    }

    /// <summary>Whether a branch holds more than `using` directives, attributes of the assembly and comments (the
    /// `#if !HAVE_LINQ using ...LinqBridge; #else using System.Linq;` atop most of Newtonsoft.Json's files).</summary>
    private static bool MayDeclare(Microsoft.CodeAnalysis.Text.SourceText text, int start, int end)
    {
        for (var number = text.Lines.GetLineFromPosition(start).LineNumber; number < text.Lines.Count; number++)
        {
            var line = text.Lines[number];
            if (line.Start >= end) break;
            var content = text.ToString(Microsoft.CodeAnalysis.Text.TextSpan.FromBounds(line.Start, Math.Min(line.End, end))).Trim();
            if (content.Length > 0 && !content.StartsWith("using ", StringComparison.Ordinal)
                && !content.StartsWith("//", StringComparison.Ordinal) && !content.StartsWith("[assembly:", StringComparison.Ordinal)
                && !content.StartsWith('#')) return true;
        }
        return false;
    }

    /// <summary>The branch lies in a member's body: the token its chain is trivia of (the first after `#endif`) is in
    /// a block or an expression body before any type.</summary>
    private static bool InBody(DirectiveTriviaSyntax directive)
    {
        for (var node = directive.ParentTrivia.Token.Parent; node is not null; node = node.Parent)
        {
            if (node is BaseTypeDeclarationSyntax or BaseNamespaceDeclarationSyntax or CompilationUnitSyntax) return false;
            if (node is BlockSyntax or ArrowExpressionClauseSyntax or AccessorListSyntax) return true;
        }
        return false;
    }

    private static string Describe(List<DirectiveTriviaSyntax> chain, int at) => chain[at] switch
    {
        IfDirectiveTriviaSyntax d => "#if " + FactSyntax.Collapse(d.Condition.ToString()),
        ElifDirectiveTriviaSyntax d => "#elif " + FactSyntax.Collapse(d.Condition.ToString()),
        _ => "#else of " + (chain[0] is IfDirectiveTriviaSyntax first ? "#if " + FactSyntax.Collapse(first.Condition.ToString()) : "#if"),
    };

    /// <summary>Symbols under which branch `at` of the chain is taken and the earlier ones are not: the indexed
    /// build's symbols with the fewest changes among those the chain's conditions name; null when none is found.</summary>
    private static HashSet<string>? Taken(List<DirectiveTriviaSyntax> chain, int at, IEnumerable<string> defined)
    {
        var conditions = chain.Take(at + 1).Select(d => d switch
        {
            IfDirectiveTriviaSyntax i => i.Condition,
            ElifDirectiveTriviaSyntax e => e.Condition,
            _ => null,
        }).ToList();
        var names = conditions.Where(c => c is not null).SelectMany(c => c!.DescendantNodesAndSelf().OfType<IdentifierNameSyntax>())
            .Select(n => n.Identifier.ValueText).Distinct(StringComparer.Ordinal).ToList();
        if (names.Count > MaxSymbols) return null;
        var baseSet = new HashSet<string>(defined, StringComparer.Ordinal);
        var tries = Enumerable.Range(0, 1 << names.Count)
            .OrderBy(mask => System.Numerics.BitOperations.PopCount((uint)mask));  // fewest flips first
        foreach (var mask in tries)
        {
            var symbols = new HashSet<string>(baseSet, StringComparer.Ordinal);
            for (var i = 0; i < names.Count; i++)
            {
                if ((mask & (1 << i)) == 0) continue;
                if (!symbols.Remove(names[i])) symbols.Add(names[i]);
            }
            var earlierFalse = conditions.Take(at).All(c => c is not null && Evaluate(c, symbols) == false);
            var thisTrue = conditions[at] is not { } own || Evaluate(own, symbols) == true;
            if (earlierFalse && thisTrue) return symbols;
        }
        return null;
    }

    /// <summary>A preprocessor condition under a set of defined symbols; null for what C# does not allow there.</summary>
    private static bool? Evaluate(ExpressionSyntax e, HashSet<string> symbols) => e switch
    {
        IdentifierNameSyntax id => symbols.Contains(id.Identifier.ValueText),
        LiteralExpressionSyntax literal when literal.IsKind(SyntaxKind.TrueLiteralExpression) => true,
        LiteralExpressionSyntax literal when literal.IsKind(SyntaxKind.FalseLiteralExpression) => false,
        ParenthesizedExpressionSyntax p => Evaluate(p.Expression, symbols),
        PrefixUnaryExpressionSyntax u when u.IsKind(SyntaxKind.LogicalNotExpression) => !Evaluate(u.Operand, symbols),
        BinaryExpressionSyntax b => (b.Kind(), Evaluate(b.Left, symbols), Evaluate(b.Right, symbols)) switch
        {
            (_, null, _) or (_, _, null) => null,
            (SyntaxKind.LogicalAndExpression, var l, var r) => l!.Value && r!.Value,
            (SyntaxKind.LogicalOrExpression, var l, var r) => l!.Value || r!.Value,
            (SyntaxKind.EqualsExpression, var l, var r) => l == r,
            (SyntaxKind.NotEqualsExpression, var l, var r) => l != r,
            _ => null,
        },
        _ => null,
    };

    /// <summary>What the branch declares, `Kind Name:line` (members named with their type), in source order.</summary>
    private static (List<string> Named, int Count) Declarations(FactSink sink, SyntaxNode root, int start, int end)
    {
        var found = new List<string>();
        var count = 0;
        foreach (var node in root.DescendantNodes(n => n.FullSpan.IntersectsWith(new Microsoft.CodeAnalysis.Text.TextSpan(start, end - start))))
        {
            // Where the declaration itself starts, after its attributes: a branch holding only `[Serializable]`
            // above a class outside it (Polly's exceptions) declares nothing.
            var at = node is MemberDeclarationSyntax { AttributeLists.Count: > 0 } attributed
                ? attributed.AttributeLists[^1].GetLastToken().GetNextToken().SpanStart
                : node.SpanStart;
            if (at < start || at >= end) continue;
            (string? kind, string? name) = node switch
            {
                TypeDeclarationSyntax t => (t.Keyword.ValueText, t.Identifier.ValueText),
                EnumDeclarationSyntax en => ("enum", en.Identifier.ValueText),
                DelegateDeclarationSyntax d => ("delegate", d.Identifier.ValueText),
                MethodDeclarationSyntax m => ("method", Owner(m) + m.Identifier.ValueText),
                ConstructorDeclarationSyntax c => ("constructor", Owner(c) + c.Identifier.ValueText),
                PropertyDeclarationSyntax p => ("property", Owner(p) + p.Identifier.ValueText),
                EventDeclarationSyntax ev => ("event", Owner(ev) + ev.Identifier.ValueText),
                BaseFieldDeclarationSyntax f => (f is EventFieldDeclarationSyntax ? "event" : "field",
                    Owner(f) + string.Join(",", f.Declaration.Variables.Select(v => v.Identifier.ValueText))),
                _ => (null, null),
            };
            if (kind is null) continue;
            if (++count <= MaxDeclarations) found.Add($"{kind} {name}:{sink.LineOf(at)}");
        }
        return (found, count);
    }

    private static string Owner(SyntaxNode member) =>
        member.Parent is BaseTypeDeclarationSyntax type ? type.Identifier.ValueText + "." : "";
}
