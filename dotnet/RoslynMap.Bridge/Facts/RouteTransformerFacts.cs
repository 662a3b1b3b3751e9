using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Parameter transformers that rewrite routes (eShopOnWeb's SlugifyParameterTransformer: `/Order/MyOrders`
/// is served as `/order/my-orders`). `new RouteTokenTransformerConvention(new T())` transforms the
/// `[controller]`/`[action]`/`[area]` tokens of attribute routes (key `token`); `ConstraintMap["slugify"] =
/// typeof(T)` names a transformer conventional patterns use as `{controller:slugify}` (key
/// `constraint:slugify`). The detail says what T's TransformOutbound does when its body shows it: a
/// `Regex.Replace(value, "pattern", "replacement")` with constant strings, and `ToLower()`/`ToLowerInvariant()`;
/// otherwise `readable: false` and the query layer says the routes are transformed by T without guessing how.
/// </summary>
internal sealed class RouteTransformerFacts(FactSink sink)
{
    /// <summary>`new RouteTokenTransformerConvention(new SlugifyParameterTransformer())`.</summary>
    public void Convention(ObjectCreationExpressionSyntax creation, string? from)
    {
        if (creation.ArgumentList is not { Arguments.Count: > 0 } args) return;
        var type = sink.Model.GetTypeInfo(args.Arguments[0].Expression).Type;
        Emit("token", type, creation.SpanStart, from);
    }

    /// <summary>`options.ConstraintMap["slugify"] = typeof(SlugifyParameterTransformer)`.</summary>
    public void ConstraintMap(AssignmentExpressionSyntax assign, string? from)
    {
        if (assign.Left is not ElementAccessExpressionSyntax { ArgumentList.Arguments: [var arg] } access) return;
        var map = access.Expression switch
        {
            MemberAccessExpressionSyntax m => m.Name.Identifier.ValueText,
            IdentifierNameSyntax i => i.Identifier.ValueText,
            _ => null,
        };
        if (map != "ConstraintMap" || assign.Right is not TypeOfExpressionSyntax typeOf) return;
        var name = FactSyntax.ConstantString(sink.Model, arg.Expression);
        if (name is null) return;
        Emit("constraint:" + name, sink.Model.GetTypeInfo(typeOf.Type).Type, assign.SpanStart, from);
    }

    private void Emit(string key, ITypeSymbol? type, int anchor, string? from)
    {
        var detail = new FactDetail().Add("type", sink.IdOf(type));
        var body = type?.GetMembers("TransformOutbound").OfType<IMethodSymbol>()
            .SelectMany(m => m.DeclaringSyntaxReferences).Select(r => r.GetSyntax()).OfType<MethodDeclarationSyntax>()
            .FirstOrDefault();
        string? pattern = null, replacement = null;
        var lower = false;
        // Readable only when the body does nothing else: a static `Regex.Replace(value, "literal", "literal")`
        // (no options), then `ToLower*()` on its result or alone, `ToString()` and null checks. Anything else (a
        // [GeneratedRegex], string.Replace, options, lowering first) and the query layer does not guess.
        var readable = body is not null;
        InvocationExpressionSyntax? regex = null;
        foreach (var inv in body?.DescendantNodes().OfType<InvocationExpressionSyntax>() ?? [])
        {
            var name = FactSyntax.Name(inv)?.Identifier.ValueText;
            if (name is "ToLower" or "ToLowerInvariant" && inv.ArgumentList.Arguments.Count == 0) lower = true;
            else if (name is "ToString" or "IsNullOrEmpty" or "IsNullOrWhiteSpace") continue;
            else if (name == "Replace" && regex is null && inv.Expression is MemberAccessExpressionSyntax { Expression: var receiver }
                     && receiver.ToString() is "Regex" or "System.Text.RegularExpressions.Regex"
                     && inv.ArgumentList.Arguments is [_, { Expression: LiteralExpressionSyntax p }, { Expression: LiteralExpressionSyntax r }])
            {
                regex = inv;
                pattern = p.Token.ValueText;
                replacement = r.Token.ValueText;
            }
            else readable = false;
        }
        // Lowering must come after the replacement (`Regex.Replace(...).ToLowerInvariant()`), as the query applies it.
        if (regex is not null && lower && !body!.DescendantNodes().OfType<InvocationExpressionSyntax>().Any(i =>
                FactSyntax.Name(i)?.Identifier.ValueText is "ToLower" or "ToLowerInvariant"
                && i.Expression is MemberAccessExpressionSyntax { Expression: var on } && on.DescendantNodesAndSelf().Contains(regex)))
            readable = false;
        readable = readable && (pattern is not null || lower);
        detail.Add("readable", readable);
        if (readable)
        {
            detail.Add("pattern", pattern).Add("replacement", replacement).Add("lower", lower);
        }
        sink.Add(FactKinds.RouteTransformer, from, anchor, type is null ? Confidence.Medium : Confidence.High, key, detail);
    }
}
