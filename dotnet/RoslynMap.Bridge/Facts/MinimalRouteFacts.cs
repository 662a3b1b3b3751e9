using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Minimal APIs (MapGet/MapPost/.../MapMethods, prefixed by MapGroup chains and by locals assigned
/// from MapGroup earlier in the same member) and conventional MapControllerRoute patterns.
/// </summary>
internal sealed class MinimalRouteFacts
{
    private const string DefaultConventionalPattern = "{controller=Home}/{action=Index}/{id?}";
    private readonly FactSink _sink;
    private readonly Dictionary<(string?, string), string> _groups = new(); // (member, local) -> prefix

    public MinimalRouteFacts(FactSink sink)
    {
        _sink = sink;
    }

    public static string? VerbOf(string name) => name switch
    {
        "MapGet" => "GET",
        "MapPost" => "POST",
        "MapPut" => "PUT",
        "MapDelete" => "DELETE",
        "MapPatch" => "PATCH",
        _ => null,
    };

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        switch (name)
        {
            case "MapGroup":
                TrackGroup(inv, from);
                break;
            case "MapMethods":
                Endpoint(inv, Verbs(FactSyntax.Arg(inv.ArgumentList, 1, "httpMethods")), handlerIndex: 2, from);
                break;
            case "MapControllerRoute":
                Conventional(inv, PatternAt(inv, 1), from);
                break;
            case "MapAreaControllerRoute":
                Conventional(inv, PatternAt(inv, 2), from);
                break;
            case "MapDefaultControllerRoute":
                Conventional(inv, DefaultConventionalPattern, from);
                break;
            default:
                if (VerbOf(name) is { } verb) Endpoint(inv, [verb], handlerIndex: 1, from);
                break;
        }
    }

    /// <summary>`Map(pattern, handler)` bound to the endpoint overload (the middleware extractor
    /// decides which one it is).</summary>
    public void AnyEndpoint(InvocationExpressionSyntax inv, string? from) => Endpoint(inv, ["ANY"], handlerIndex: 1, from);

    private void Endpoint(InvocationExpressionSyntax inv, IReadOnlyList<string> verbs, int handlerIndex, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.AspNetCore);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        var pattern = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "pattern")?.Expression);
        if (pattern is null) return;
        var prefix = GroupPrefix(FactSyntax.Receiver(inv), from);
        if (prefix is null) return;
        var key = RouteTemplates.Join(prefix, pattern);
        var handler = Handler(FactSyntax.Arg(inv.ArgumentList, handlerIndex, "handler"), from);
        var anchor = FactSyntax.Name(inv)!.SpanStart;
        foreach (var verb in verbs)
        {
            _sink.Add(FactKinds.Route, handler, anchor, confidence, key,
                new FactDetail().Add("method", verb).Add("handler", handler).Add("source", "minimal"));
        }
    }

    private string? PatternAt(InvocationExpressionSyntax inv, int position) =>
        FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, position, "pattern")?.Expression);

    private void Conventional(InvocationExpressionSyntax inv, string? pattern, string? from)
    {
        if (pattern is null) return;
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.AspNetCore);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        _sink.Add(FactKinds.Route, from, FactSyntax.Name(inv)!.SpanStart, confidence, RouteTemplates.Normalize(pattern),
            new FactDetail().Add("method", "ANY").Add("handler", from).Add("source", "conventional"));
    }

    /// <summary>A method group handler is the route's handler; a lambda belongs to its enclosing member.</summary>
    private string? Handler(ArgumentSyntax? arg, string? from)
    {
        if (arg is null || FactSyntax.IsLambda(arg.Expression)) return from;
        var info = _sink.Model.GetSymbolInfo(arg.Expression);
        var method = (info.Symbol ?? (info.CandidateSymbols.Length > 0 ? info.CandidateSymbols[0] : null)) as IMethodSymbol;
        return method is null ? from : _sink.IdOf(method) ?? from;
    }

    /// <summary>`var g = x.MapGroup("/a")...;` (or `g = ...`) remembers g's full prefix for this member.</summary>
    private void TrackGroup(InvocationExpressionSyntax inv, string? from)
    {
        var top = FactSyntax.ChainTop(inv);
        var local = top.Parent switch
        {
            EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax v } => v.Identifier.ValueText,
            AssignmentExpressionSyntax { Left: IdentifierNameSyntax left } a when a.Right == top => left.Identifier.ValueText,
            _ => null,
        };
        if (local is null) return;
        var prefix = GroupPrefix(top, from);
        if (prefix is null) _groups.Remove((from, local));
        else _groups[(from, local)] = prefix;
    }

    /// <summary>The MapGroup prefix a receiver stands for: "" for the app itself, null when a
    /// group's prefix is not a constant.</summary>
    private string? GroupPrefix(ExpressionSyntax? receiver, string? from)
    {
        var parts = new List<string>();
        var e = receiver;
        while (e is not null)
        {
            e = FactSyntax.Unwrap(e);
            if (e is InvocationExpressionSyntax call)
            {
                if (FactSyntax.NameText(call) == "MapGroup")
                {
                    var part = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(call.ArgumentList, 0, "prefix")?.Expression);
                    if (part is null) return null;
                    parts.Add(part);
                }
                e = FactSyntax.Receiver(call); // builder calls between groups (RequireAuthorization...) keep the group
                continue;
            }
            if (e is IdentifierNameSyntax id && _groups.TryGetValue((from, id.Identifier.ValueText), out var known))
                parts.Add(known);
            break;
        }
        var prefix = "";
        for (var i = parts.Count - 1; i >= 0; i--) prefix = RouteTemplates.Join(prefix, parts[i]);
        return prefix;
    }

    private IReadOnlyList<string> Verbs(ArgumentSyntax? arg)
    {
        IEnumerable<ExpressionSyntax>? items = arg is null ? null : FactSyntax.Unwrap(arg.Expression) switch
        {
            ArrayCreationExpressionSyntax a => a.Initializer?.Expressions,
            ImplicitArrayCreationExpressionSyntax a => a.Initializer.Expressions,
            CollectionExpressionSyntax c => c.Elements.OfType<ExpressionElementSyntax>().Select(x => x.Expression),
            _ => null,
        };
        var verbs = new List<string>();
        foreach (var item in items ?? [])
        {
            if (FactSyntax.ConstantString(_sink.Model, item) is not { } verb) return ["ANY"];
            verbs.Add(verb.ToUpperInvariant());
        }
        return verbs.Count > 0 ? verbs : ["ANY"];
    }
}
