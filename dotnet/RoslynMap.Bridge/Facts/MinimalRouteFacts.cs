using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Minimal APIs (MapGet/MapPost/.../MapMethods, prefixed by MapGroup chains and by locals assigned
/// from MapGroup earlier in the same member) and conventional MapControllerRoute patterns.
/// A route mapped on a route-builder parameter records `group_parameter` (its ordinal) and
/// `group_member`; a group handed to a method of the solution records a RouteGroupCall fact. The
/// query layer joins the two across methods and files (`app.MapGroup("/api").MapOrders()`).
/// </summary>
internal sealed class MinimalRouteFacts
{
    private const string DefaultConventionalPattern = "{controller=Home}/{action=Index}/{id?}";
    private readonly FactSink _sink;
    // (member, local) -> the group's prefix, and the route-builder parameter it was made from (if any)
    private readonly Dictionary<(string?, string), (string Prefix, int? Parameter)> _groups = new();
    // Per method declaration: its parameters typed as route builders, name -> ordinal.
    private readonly Dictionary<SyntaxNode, Dictionary<string, int>> _routeParameters = new();

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
        var prefix = GroupPrefix(FactSyntax.Receiver(inv), from, out var parameter);
        if (prefix is null) return;
        var key = RouteTemplates.Join(prefix, pattern);
        var handler = Handler(FactSyntax.Arg(inv.ArgumentList, handlerIndex, "handler"), from);
        var anchor = FactSyntax.Name(inv)!.SpanStart;
        foreach (var verb in verbs)
        {
            var detail = new FactDetail().Add("method", verb).Add("handler", handler).Add("source", "minimal");
            if (parameter is { } ordinal) detail.Add("group_parameter", ordinal).Add("group_member", from);
            _sink.Add(FactKinds.Route, handler, anchor, confidence, key, detail);
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
        var method = Bound.ForFacts(info) as IMethodSymbol;
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
        var prefix = GroupPrefix(top, from, out var parameter);
        if (prefix is null) _groups.Remove((from, local));
        else _groups[(from, local)] = (prefix, parameter);
    }

    /// <summary>The MapGroup prefix a receiver stands for: "" for the app itself, null when a
    /// group's prefix is not a constant. `parameter`: the route-builder parameter of the enclosing
    /// method the chain starts from (directly or through a group local), whose callers add their prefix.</summary>
    private string? GroupPrefix(ExpressionSyntax? receiver, string? from, out int? parameter)
    {
        var parts = new List<string>();
        parameter = null;
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
            if (e is IdentifierNameSyntax id)
            {
                if (_groups.TryGetValue((from, id.Identifier.ValueText), out var known))
                {
                    parts.Add(known.Prefix);
                    parameter = known.Parameter;
                }
                else parameter = RouteParameter(id, id);
            }
            break;
        }
        var prefix = "";
        for (var i = parts.Count - 1; i >= 0; i--) prefix = RouteTemplates.Join(prefix, parts[i]);
        return prefix;
    }

    /// <summary>`x.MapGroup("/a").MapOrders()` or `MapOrders(group)`: a group handed to a method of the
    /// solution. Syntax decides first (a MapGroup chain, a tracked group local or a route-builder
    /// parameter); only then is the call bound.</summary>
    public void GroupCall(InvocationExpressionSyntax inv, string? from)
    {
        var receiver = FactSyntax.Receiver(inv);
        var receiverIsGroup = receiver is not null && IsGroup(inv, receiver, from);
        var groupArgs = new List<(int Position, ArgumentSyntax Arg)>();
        var args = inv.ArgumentList.Arguments;
        for (var i = 0; i < args.Count; i++)
        {
            if (IsGroup(inv, args[i].Expression, from)) groupArgs.Add((i, args[i]));
        }
        if (!receiverIsGroup && groupArgs.Count == 0) return;
        if (_sink.Model.GetSymbolInfo(inv).Symbol is not IMethodSymbol called) return;
        var method = called.ReducedFrom ?? called;
        if (!method.Locations.Any(l => l.IsInSource)) return; // a framework call (RequireAuthorization...)
        var target = _sink.IdOf(method);
        if (target is null) return;
        var shift = called.ReducedFrom is null ? 0 : 1;
        if (receiverIsGroup && shift == 1) Emit(receiver!, 0);
        foreach (var (position, arg) in groupArgs)
        {
            var ordinal = arg.NameColon is { } named
                ? method.Parameters.IndexOf(method.Parameters.FirstOrDefault(p => p.Name == named.Name.Identifier.ValueText)!)
                : position + shift;
            if (ordinal >= 0 && ordinal < method.Parameters.Length) Emit(arg.Expression, ordinal);
        }

        void Emit(ExpressionSyntax group, int ordinal)
        {
            var prefix = GroupPrefix(group, from, out var outer);
            if (prefix is null) return;
            var detail = new FactDetail().Add("target", target).Add("parameter", ordinal);
            if (outer is { } passedOn) detail.Add("group_parameter", passedOn).Add("group_member", from);
            _sink.Add(FactKinds.RouteGroupCall, from, FactSyntax.Name(inv)!.SpanStart, Confidence.High, prefix, detail);
        }
    }

    private bool IsGroup(InvocationExpressionSyntax inv, ExpressionSyntax expression, string? from)
    {
        var e = FactSyntax.Unwrap(expression);
        while (e is InvocationExpressionSyntax call)
        {
            if (FactSyntax.NameText(call) == "MapGroup") return true;
            if (FactSyntax.Receiver(call) is not { } next) return false;
            e = FactSyntax.Unwrap(next);
        }
        return e is IdentifierNameSyntax id
               && (_groups.ContainsKey((from, id.Identifier.ValueText)) || RouteParameter(inv, id) is not null);
    }

    /// <summary>The ordinal of the enclosing method's parameter `id` names, when that parameter is typed
    /// as a route builder (IEndpointRouteBuilder, RouteGroupBuilder...); null otherwise.</summary>
    private int? RouteParameter(SyntaxNode at, IdentifierNameSyntax? id)
    {
        if (id is null) return null;
        var method = at.Ancestors().FirstOrDefault(a => a is MethodDeclarationSyntax or LocalFunctionStatementSyntax
            or AnonymousFunctionExpressionSyntax or TypeDeclarationSyntax or CompilationUnitSyntax);
        if (method is not MethodDeclarationSyntax declaration) return null;
        if (!_routeParameters.TryGetValue(declaration, out var parameters))
        {
            parameters = new Dictionary<string, int>(StringComparer.Ordinal);
            var list = declaration.ParameterList.Parameters;
            for (var i = 0; i < list.Count; i++)
            {
                var type = list[i].Type?.ToString() ?? "";
                if (type.EndsWith("RouteBuilder", StringComparison.Ordinal) || type.EndsWith("RouteGroupBuilder", StringComparison.Ordinal))
                    parameters[list[i].Identifier.ValueText] = i;
            }
            _routeParameters[declaration] = parameters;
        }
        return parameters.TryGetValue(id.Identifier.ValueText, out var ordinal) ? ordinal : null;
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
