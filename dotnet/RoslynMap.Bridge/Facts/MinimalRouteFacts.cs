using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
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
    // (member, local) -> the group's prefix, the route-builder parameter it was made from (if any), and the
    // API versions its chain declares (Asp.Versioning's HasApiVersion)
    private readonly Dictionary<(string?, string), (string Prefix, int? Parameter, List<string> Versions)> _groups = new();
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
                Conventional(inv, PatternAt(inv, 1), from, defaultsAt: 2);
                break;
            case "MapAreaControllerRoute":
                Conventional(inv, PatternAt(inv, 2), from, defaultsAt: 3, area: FactSyntax.Arg(inv.ArgumentList, 1, "areaName"));
                break;
            case "MapDefaultControllerRoute":
                Conventional(inv, (DefaultConventionalPattern, null), from, defaultsAt: -1);
                break;
            case "MapHealthChecks":
                Endpoint(inv, ["ANY"], handlerIndex: -1, from, "health_checks");
                break;
            case "MapHub":
                Endpoint(inv, ["ANY"], handlerIndex: -1, from, "signalr", HubHandler(inv));
                break;
            case "MapDynamicControllerRoute" or "MapDynamicPageRoute":
                Endpoint(inv, ["ANY"], handlerIndex: -1, from, "dynamic", TransformerHandler(inv));
                break;
            case "MapForwarder":
                Endpoint(inv, ["ANY"], handlerIndex: -1, from, "forwarder", extra: d => d.Add("destination",
                    FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 1, "destinationPrefix")?.Expression)));
                break;
            case "MapFallback" or "MapFallbackToFile" or "MapFallbackToPage" or "MapFallbackToController":
                Fallback(inv, name, from);
                break;
            case "MapGrpcService":
                GrpcService(inv, from);
                break;
            case "MapIdentityApi":
                IdentityApi(inv, from);
                break;
            case "MapOpenApi":
                // Microsoft.AspNetCore.OpenApi serves each document at its pattern (default below).
                Endpoint(inv, ["GET"], -1, from, "openapi", pattern: FactSyntax.ConstantString(_sink.Model,
                    FactSyntax.Arg(inv.ArgumentList, 0, "pattern")?.Expression) ?? "/openapi/{documentName}.json");
                break;
            case "MapScalarApiReference":
                ScalarReference(inv, from);
                break;
            default:
                if (VerbOf(name) is { } verb) Endpoint(inv, [verb], handlerIndex: 1, from);
                break;
        }
    }

    /// <summary>`Map(pattern, handler)` bound to the endpoint overload (the middleware extractor
    /// decides which one it is).</summary>
    public void AnyEndpoint(InvocationExpressionSyntax inv, string? from) => Endpoint(inv, ["ANY"], handlerIndex: 1, from);

    /// <summary>One route per verb. `handlerIndex` -1: the endpoint has no delegate (health checks, hubs,
    /// forwarders): the handler is `handler` if given, else the registering member. `pattern` overrides
    /// the first argument (fallbacks).</summary>
    private void Endpoint(InvocationExpressionSyntax inv, IReadOnlyList<string> verbs, int handlerIndex, string? from,
        string source = "minimal", string? handler = null, Action<FactDetail>? extra = null, string? pattern = null)
    {
        var (binding, bound) = FrameworkApi.Classify(_sink.Model, inv, source is "forwarder" or "grpc" or "scalar" ? AnyAssembly : FrameworkApi.AspNetCore);
        if (binding == Binding.Other && source == "minimal" && handlerIndex >= 0)
        {
            WrapperCall(inv, bound as IMethodSymbol, from);
            return;
        }
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        List<string>? holes = null;
        if (pattern is null)
        {
            var written = FactSyntax.Arg(inv.ArgumentList, 0, "pattern")?.Expression;
            pattern = FactSyntax.ConstantString(_sink.Model, written);
            if (pattern is null && source == "minimal" && handlerIndex >= 0 && ParameterOf(FactSyntax.Arg(inv.ArgumentList, 0, "pattern")) is not null)
            {
                Wrapper(inv, verbs, handlerIndex, from, confidence);
                return;
            }
            if (pattern is null) (pattern, holes) = WithHoles(written);
            if (pattern is null) return;
        }
        var versions = new List<string>();
        var prefix = GroupPrefix(FactSyntax.Receiver(inv), from, out var parameter, versions);
        if (prefix is null) return;
        if (parameter is not null && CarterBasePath(inv) is { } basePath)
        {
            // Carter maps the module's AddRoutes on a group of the base path its constructor gives.
            prefix = RouteTemplates.Join(basePath, prefix);
            parameter = null;
        }
        var mapped = new List<string>();
        EndpointVersions(inv, versions, mapped);
        // Asp.Versioning maps an endpoint with MapToApiVersion to those versions alone, of those its groups declare.
        if (mapped.Count > 0) versions = mapped;
        var key = RouteTemplates.Join(prefix, pattern);
        var handlerArg = handlerIndex < 0 ? null : FactSyntax.Arg(inv.ArgumentList, handlerIndex, "handler");
        handler ??= Handler(handlerArg, from);
        var anchor = FactSyntax.Name(inv)!.SpanStart;
        foreach (var verb in verbs)
        {
            var detail = new FactDetail().Add("method", verb).Add("handler", handler).Add("source", source);
            // A lambda has no symbol: the route names the member that holds it, and where the lambda is.
            if (handlerArg is not null && FactSyntax.IsLambda(handlerArg.Expression))
                detail.Add("handler_kind", handler == from ? "lambda" : "lambda_forwarding")
                    .Add("handler_line", _sink.LineOf(handlerArg.SpanStart))
                    // its last line too: a trace or a test reaches the route only through calls inside it
                    .Add("handler_end_line", _sink.LineOf(handlerArg.Span.End));
            AddGroupParameter(detail, inv, parameter, from);
            // eShop maps `/items` twice, on a v1 and a v2 group: the versions tell the two handlers apart.
            if (versions.Count > 0) detail.Add("api_versions", versions.Distinct().OrderBy(v => v, StringComparer.Ordinal).ToList());
            // so the query layer does not add the versions of a group a caller hands over
            if (mapped.Count > 0) detail.Add("api_versions_mapped", true);
            detail.Add("dynamic_parts", holes);
            extra?.Invoke(detail);
            _sink.Add(FactKinds.Route, handler, anchor, confidence, key, detail);
        }
    }

    /// <summary>A method of the solution that maps a route from its own parameters (jasontaylordev/CleanArchitecture's
    /// `MapGet(this IEndpointRouteBuilder builder, Delegate handler, string pattern = "")` calling the framework's
    /// `builder.MapGet(pattern, handler)`): a RouteWrapper fact per verb names the parameters that give the
    /// pattern, the handler and the group; each call of the method (WrapperCall) supplies them.</summary>
    private void Wrapper(InvocationExpressionSyntax inv, IReadOnlyList<string> verbs, int handlerIndex, string? from, string confidence)
    {
        if (from is null || ParameterOf(FactSyntax.Arg(inv.ArgumentList, 0, "pattern")) is not { } pattern) return;
        var prefix = GroupPrefix(FactSyntax.Receiver(inv), from, out var group);
        if (prefix is null) return;
        var handler = ParameterOf(FactSyntax.Arg(inv.ArgumentList, handlerIndex, "handler"));
        foreach (var verb in verbs)
        {
            var detail = new FactDetail().Add("pattern_parameter", pattern.Ordinal).Add("prefix", prefix)
                .Add("pattern_default", pattern.HasExplicitDefaultValue ? pattern.ExplicitDefaultValue as string : null)
                .Add("handler_parameter", handler?.Ordinal).Add("group_parameter", group);
            _sink.Add(FactKinds.RouteWrapper, from, FactSyntax.Name(inv)!.SpanStart, confidence, verb, detail);
        }
    }

    /// <summary>The enclosing method's parameter an argument passes on as it is, else null.</summary>
    private IParameterSymbol? ParameterOf(ArgumentSyntax? arg) =>
        arg is not null && FactSyntax.Unwrap(arg.Expression) is IdentifierNameSyntax id
            && _sink.Model.GetSymbolInfo(id).Symbol is IParameterSymbol { ContainingSymbol: IMethodSymbol } parameter
            ? parameter
            : null;

    /// <summary>A Map{Verb} call bound to a method of the solution (a possible route wrapper): its constant
    /// string arguments, its handlers (method groups, lambdas) and the groups it is handed, by the callee's
    /// parameter ordinal, so the query layer can join it with the callee's RouteWrapper facts.</summary>
    private void WrapperCall(InvocationExpressionSyntax inv, IMethodSymbol? called, string? from)
    {
        if (called is null) return;
        var method = called.ReducedFrom ?? called;
        if (!method.Locations.Any(l => l.IsInSource) || _sink.IdOf(method) is not { } target) return;
        var shift = called.ReducedFrom is null ? 0 : 1;
        var detail = new FactDetail().Add("target", target);
        if (shift == 1 && !Group(FactSyntax.Receiver(inv), 0)) return;
        var args = inv.ArgumentList.Arguments;
        for (var i = 0; i < args.Count; i++)
        {
            var ordinal = args[i].NameColon is { } named
                ? method.Parameters.IndexOf(method.Parameters.FirstOrDefault(p => p.Name == named.Name.Identifier.ValueText)!)
                : i + shift;
            if (ordinal < 0) continue;
            var expression = args[i].Expression;
            if (FactSyntax.ConstantString(_sink.Model, expression) is { } text) detail.Add($"arg{ordinal}", text);
            else if (IsGroup(inv, expression, from)) { if (!Group(expression, ordinal)) return; }
            else if (Handler(args[i], from) is { } handler && handler != from)
            {
                detail.Add($"handler{ordinal}", handler);
            }
            else if (FactSyntax.IsLambda(expression))
                detail.Add($"lambda{ordinal}", _sink.LineOf(expression.SpanStart))
                    .Add($"lambda{ordinal}_end", _sink.LineOf(expression.Span.End));
        }
        _sink.Add(FactKinds.RouteWrapperCall, from, FactSyntax.Name(inv)!.SpanStart, Confidence.High, target, detail);

        // A group handed to the callee: its prefix, and the caller's own route-builder parameter it comes from.
        bool Group(ExpressionSyntax? group, int ordinal)
        {
            var prefix = GroupPrefix(group, from, out var outer);
            if (prefix is null) return false;
            detail.Add($"group{ordinal}", prefix).Add($"group{ordinal}_parameter", outer);
            if (outer is { } passedOn && IsRouteGroupParameter(inv, passedOn)) detail.Add($"group{ordinal}_is_route_group", true);
            return true;
        }
    }

    /// <summary>The routes ASP.NET Core Identity's `MapIdentityApi&lt;TUser&gt;()` maps (.NET 8 and later), on the
    /// group it is called on: the framework's own code, so no handler of the solution; the registering member.</summary>
    private static readonly (string Verb, string Route)[] IdentityApiRoutes =
    [
        ("POST", "/register"), ("POST", "/login"), ("POST", "/refresh"), ("GET", "/confirmEmail"),
        ("POST", "/resendConfirmationEmail"), ("POST", "/forgotPassword"), ("POST", "/resetPassword"),
        ("POST", "/manage/2fa"), ("GET", "/manage/info"), ("POST", "/manage/info"),
    ];

    private void IdentityApi(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.AspNetCore);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        var prefix = GroupPrefix(FactSyntax.Receiver(inv), from, out var parameter);
        if (prefix is null) return;
        foreach (var (verb, route) in IdentityApiRoutes)
        {
            var detail = new FactDetail().Add("method", verb).Add("handler", from).Add("source", "identity_api");
            AddGroupParameter(detail, inv, parameter, from);
            _sink.Add(FactKinds.Route, from, FactSyntax.Name(inv)!.SpanStart, confidence, RouteTemplates.Join(prefix, route), detail);
        }
    }

    /// <summary>Yarp's MapForwarder, Grpc's MapGrpcService and Scalar's MapScalarApiReference live in their own
    /// packages: any binding to a method of that name counts, an unbound one is matched by syntax.</summary>
    private static readonly string[] AnyAssembly = ["Yarp", "Grpc", "Scalar", "Microsoft.AspNetCore"];

    /// <summary>`app.MapScalarApiReference()`: Scalar's API reference page. Scalar.AspNetCore 2.x maps
    /// `{endpointPrefix}/{documentName?}` (prefix "/scalar", or the first string argument); 1.x mapped
    /// `/scalar/{documentName}` (its options could move it: not read here).</summary>
    private void ScalarReference(InvocationExpressionSyntax inv, string? from)
    {
        var bound = _sink.Model.GetSymbolInfo(inv).Symbol as IMethodSymbol;
        var version = bound?.ContainingAssembly?.Identity.Version.Major;
        var prefix = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "endpointPrefix")?.Expression);
        var pattern = version == 1 ? "/scalar/{documentName}" : RouteTemplates.Join(prefix ?? "/scalar", "{documentName?}");
        Endpoint(inv, ["GET"], -1, from, "scalar", pattern: pattern);
    }

    /// <summary>The default fallback pattern, or the `pattern` argument of the overloads that take one.</summary>
    private const string FallbackPattern = "{*path:nonfile}";

    private void Fallback(InvocationExpressionSyntax inv, string name, string? from)
    {
        var args = inv.ArgumentList.Arguments;
        // Overloads with a pattern take it first: (pattern, handler), (pattern, file), (pattern, page),
        // (pattern, action, controller). Without one: (handler), (file), (page), (action, controller).
        var withPattern = name switch
        {
            "MapFallbackToController" => args.Count >= 3 && FactSyntax.ConstantString(_sink.Model, args[2].Expression) is not null,
            _ => args.Count >= 2 && FactSyntax.ConstantString(_sink.Model, args[1].Expression) is not null
                 || args.Count >= 2 && name == "MapFallback",
        };
        var pattern = withPattern ? FactSyntax.ConstantString(_sink.Model, args[0].Expression) : FallbackPattern;
        if (pattern is null) return;
        var first = withPattern ? 1 : 0;
        var target = name == "MapFallback" || args.Count <= first ? null : FactSyntax.ConstantString(_sink.Model, args[first].Expression);
        // MapFallbackToController(action, controller): the controller too, so the action is known to serve the route.
        var controller = name == "MapFallbackToController" && args.Count > first + 1
            ? FactSyntax.ConstantString(_sink.Model, args[first + 1].Expression) : null;
        Endpoint(inv, ["ANY"], name == "MapFallback" ? first : -1, from, "fallback", pattern: pattern,
            extra: d => d.Add(name switch { "MapFallbackToFile" => "fallback_file", "MapFallbackToPage" => "fallback_page", _ => "fallback_action" }, target)
                .Add("fallback_controller", controller));
    }

    /// <summary>`MapHub&lt;ChatHub&gt;("/chat")`: the hub type is the handler.</summary>
    private string? HubHandler(InvocationExpressionSyntax inv)
    {
        var typeArgs = FactSyntax.TypeArgs(inv);
        return typeArgs.Count == 1 ? _sink.IdOf(_sink.Model.GetTypeInfo(typeArgs[0]).Type) : null;
    }

    /// <summary>`MapDynamicControllerRoute&lt;SlugRouteValueTransformer&gt;("/{**slug}")` (SimplCommerce): the controller
    /// and action are chosen at run time by the transformer, whose TransformAsync is the handler (the type when
    /// the override is not the solution's).</summary>
    private string? TransformerHandler(InvocationExpressionSyntax inv)
    {
        var typeArgs = FactSyntax.TypeArgs(inv);
        if (typeArgs.Count != 1 || _sink.Model.GetTypeInfo(typeArgs[0]).Type is not INamedTypeSymbol transformer) return null;
        for (var t = transformer; t is not null; t = t.BaseType)
        {
            var transform = t.GetMembers("TransformAsync").OfType<IMethodSymbol>().FirstOrDefault(m => m.Locations.Any(l => l.IsInSource));
            if (transform is not null) return _sink.IdOf(transform);
        }
        return _sink.IdOf(transformer);
    }

    /// <summary>`MapGrpcService&lt;BasketService&gt;()`: one POST route per service method, that is per
    /// method overriding the generated `*Base` class, at `/{package.Service}/{Method}`.</summary>
    private void GrpcService(InvocationExpressionSyntax inv, string? from)
    {
        var typeArgs = FactSyntax.TypeArgs(inv);
        if (typeArgs.Count != 1 || _sink.Model.GetTypeInfo(typeArgs[0]).Type is not INamedTypeSymbol service
            || service.TypeKind == TypeKind.Error) return;
        foreach (var member in service.GetMembers())
        {
            if (member is not IMethodSymbol { IsOverride: true, OverriddenMethod: { } overridden } method) continue;
            var baseType = overridden.ContainingType;
            if (baseType.SpecialType == SpecialType.System_Object) continue;
            var path = "/" + GrpcServiceName(baseType) + "/" + method.Name;
            Endpoint(inv, ["POST"], -1, from, "grpc", _sink.IdOf(method), pattern: path);
        }
    }

    /// <summary>The generated `static readonly string __ServiceName = "pkg.Service"` of the class holding
    /// the base, else that class's name.</summary>
    private static string GrpcServiceName(INamedTypeSymbol baseType)
    {
        var holder = baseType.ContainingType ?? baseType;
        foreach (var field in holder.GetMembers("__ServiceName").OfType<IFieldSymbol>())
        {
            if (field.HasConstantValue && field.ConstantValue is string constant) return constant;
            foreach (var reference in field.DeclaringSyntaxReferences)
            {
                if (reference.GetSyntax() is VariableDeclaratorSyntax { Initializer.Value: LiteralExpressionSyntax literal }
                    && literal.Token.Value is string text) return text;
            }
        }
        return holder.Name;
    }

    private (string? Pattern, List<string>? Holes) PatternAt(InvocationExpressionSyntax inv, int position)
    {
        var written = FactSyntax.Arg(inv.ArgumentList, position, "pattern")?.Expression;
        return FactSyntax.ConstantString(_sink.Model, written) is { } constant ? (constant, null) : WithHoles(written);
    }

    /// <summary>A route template built from constant text and values the code computes at run time (grandnode's
    /// `$"{pattern}login/"`, `pattern` an optional language segment): the constant text, the holes left out, and
    /// the holes' expressions, said as the route's `dynamic_parts`. Null when no constant text is left (a template
    /// that is all run-time values names no route), or a hole is formatted.</summary>
    private (string? Pattern, List<string>? Holes) WithHoles(ExpressionSyntax? written)
    {
        if (written is null) return (null, null);
        var holes = new List<string>();
        var text = Parts(FactSyntax.Unwrap(written), holes, 0);
        return text is null || holes.Count == 0 || text.Trim('/', '~').Length == 0 ? (null, null) : (text, holes);
    }

    private string? Parts(ExpressionSyntax e, List<string> holes, int depth)
    {
        if (FactSyntax.ConstantString(_sink.Model, e) is { } constant) return constant;
        switch (e)
        {
            case InterpolatedStringExpressionSyntax interpolated:
                var text = new System.Text.StringBuilder();
                foreach (var part in interpolated.Contents)
                {
                    if (part is InterpolatedStringTextSyntax literal) text.Append(literal.TextToken.ValueText);
                    else if (part is InterpolationSyntax { AlignmentClause: null, FormatClause: null } hole)
                        text.Append(Parts(FactSyntax.Unwrap(hole.Expression), holes, depth + 1) ?? "");
                    else return null;
                }
                return text.ToString();
            case BinaryExpressionSyntax { RawKind: (int)SyntaxKind.AddExpression } sum when depth < 8:
                return Parts(FactSyntax.Unwrap(sum.Left), holes, depth + 1) is { } left
                       && Parts(FactSyntax.Unwrap(sum.Right), holes, depth + 1) is { } right ? left + right : null;
            case IdentifierNameSyntax or MemberAccessExpressionSyntax or InvocationExpressionSyntax:
                holes.Add(FactSyntax.Collapse(e.ToString()));
                return "";
            default:
                return null;
        }
    }

    /// <summary>A conventional pattern, with the controller, action and area its `defaults` object gives
    /// (`MapControllerRoute("login", "admin/login/", new { controller = "Login", action = "Index" })`: a pattern
    /// without those parameters reaches the one action they name) and MapAreaControllerRoute's area name (a default
    /// and a constraint in ASP.NET Core). A value that is not a constant string makes the route's actions unknown
    /// (`defaults_unknown`), so the pattern is listed as written rather than given to the wrong actions.</summary>
    private void Conventional(InvocationExpressionSyntax inv, (string? Pattern, List<string>? Holes) template, string? from,
        int defaultsAt, ArgumentSyntax? area = null)
    {
        if (template.Pattern is not { } pattern) return;
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.AspNetCore);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        var detail = new FactDetail().Add("method", "ANY").Add("handler", from).Add("source", "conventional");
        var given = new SortedDictionary<string, string>(StringComparer.Ordinal);
        var unknown = false;
        var defaults = defaultsAt < 0 ? null : FactSyntax.Arg(inv.ArgumentList, defaultsAt, "defaults");
        if (defaults is not null && !IsNull(defaults.Expression))
        {
            if (FactSyntax.Unwrap(defaults.Expression) is AnonymousObjectCreationExpressionSyntax values)
            {
                foreach (var member in values.Initializers)
                {
                    var name = member.NameEquals?.Name.Identifier.ValueText
                               ?? (member.Expression as IdentifierNameSyntax)?.Identifier.ValueText;
                    if (name?.ToLowerInvariant() is not ("controller" or "action" or "area") || name is null) continue;
                    var value = FactSyntax.ConstantString(_sink.Model, member.Expression);
                    if (value is null) unknown = true;
                    else given[name.ToLowerInvariant()] = value;
                }
            }
            else unknown = true; // a RouteValueDictionary or a variable: its values are not read here
        }
        if (area is not null)
        {
            var name = FactSyntax.ConstantString(_sink.Model, area.Expression);
            if (name is null) unknown = true;
            else given["area"] = name;
        }
        foreach (var (name, value) in given) detail.Add("default_" + name, value);
        if (unknown) detail.Add("defaults_unknown", true);
        detail.Add("dynamic_parts", template.Holes);
        _sink.Add(FactKinds.Route, from, FactSyntax.Name(inv)!.SpanStart, confidence, RouteTemplates.Normalize(pattern), detail);
    }

    private static bool IsNull(ExpressionSyntax e) =>
        FactSyntax.Unwrap(e) is LiteralExpressionSyntax { RawKind: (int)SyntaxKind.NullLiteralExpression };

    /// <summary>A method group handler is the route's handler; so is the solution's method a lambda only
    /// forwards to (`async (IRepo r) => await HandleAsync(r)`); any other lambda belongs to its enclosing member.</summary>
    private string? Handler(ArgumentSyntax? arg, string? from)
    {
        if (arg is null) return from;
        if (FactSyntax.IsLambda(arg.Expression)) return ForwardedTo(arg.Expression) ?? from;
        var info = _sink.Model.GetSymbolInfo(arg.Expression);
        var method = Bound.ForFacts(info) as IMethodSymbol;
        return method is null ? from : _sink.IdOf(method) ?? from;
    }

    /// <summary>The source method a lambda's body is a single call to (awaited or not), else null.</summary>
    private string? ForwardedTo(ExpressionSyntax lambda)
    {
        if (FactSyntax.Unwrap(lambda) is not AnonymousFunctionExpressionSyntax f) return null;
        var body = f.Body switch
        {
            ExpressionSyntax e => e,
            BlockSyntax { Statements: [ReturnStatementSyntax { Expression: { } r }] } => r,
            BlockSyntax { Statements: [ExpressionStatementSyntax { Expression: var x }] } => x,
            _ => null,
        };
        if (body is AwaitExpressionSyntax awaited) body = awaited.Expression;
        if (body is null || FactSyntax.Unwrap(body) is not InvocationExpressionSyntax call) return null;
        var method = _sink.Model.GetSymbolInfo(call).Symbol as IMethodSymbol;
        method = method?.ReducedFrom ?? method;
        return method is not null && method.Locations.Any(l => l.IsInSource) ? _sink.IdOf(method) : null;
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
        var versions = new List<string>();
        var prefix = GroupPrefix(top, from, out var parameter, versions);
        if (prefix is null) _groups.Remove((from, local));
        else _groups[(from, local)] = (prefix, parameter, versions);
    }

    /// <summary>The MapGroup prefix a receiver stands for: "" for the app itself, null when a
    /// group's prefix is not a constant. `parameter`: the route-builder parameter of the enclosing
    /// method the chain starts from (directly or through a group local), whose callers add their prefix.</summary>
    private string? GroupPrefix(ExpressionSyntax? receiver, string? from, out int? parameter, List<string>? versions = null)
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
                else if (versions is not null) ApiVersion(call, versions);
                e = FactSyntax.Receiver(call); // builder calls between groups (RequireAuthorization...) keep the group
                continue;
            }
            if (e is IdentifierNameSyntax id)
            {
                if (_groups.TryGetValue((from, id.Identifier.ValueText), out var known))
                {
                    parts.Add(known.Prefix);
                    parameter = known.Parameter;
                    versions?.AddRange(known.Versions);
                }
                else parameter = RouteParameter(id, id);
            }
            break;
        }
        var prefix = "";
        for (var i = parts.Count - 1; i >= 0; i--) prefix = RouteTemplates.Join(prefix, parts[i]);
        return prefix;
    }

    /// <summary>Versions declared after the endpoint in its own chain: `.MapGet(...).HasApiVersion(2.0)`,
    /// `.WithApiVersionSet(set)`; `.MapToApiVersion(1, 0)` into `mapped`.</summary>
    private void EndpointVersions(InvocationExpressionSyntax inv, List<string> versions, List<string> mapped)
    {
        SyntaxNode node = inv;
        while (node.Parent is MemberAccessExpressionSyntax access && access.Expression == node
               && access.Parent is InvocationExpressionSyntax outer)
        {
            ApiVersion(outer, FactSyntax.NameText(outer) == "MapToApiVersion" ? mapped : versions);
            node = outer;
        }
    }

    /// <summary>`HasApiVersion(1, 0)`, `(1.0)`, `("1.0")`, `(new ApiVersion(1, 0))` (and HasDeprecatedApiVersion: a
    /// deprecated version is still answered; MapToApiVersion) as "1.0"; `WithApiVersionSet(set)`: the versions of that
    /// set (VersionSet). A version that is not a constant is left out. `model`: that of the call's tree.</summary>
    private void ApiVersion(InvocationExpressionSyntax call, List<string> versions, SemanticModel? model = null, int depth = 0)
    {
        model ??= _sink.Model;
        var name = FactSyntax.NameText(call);
        if (name == "WithApiVersionSet")
        {
            VersionSet(FactSyntax.Arg(call.ArgumentList, 0, "apiVersionSet")?.Expression, model, versions, depth);
            return;
        }
        if (name is not ("HasApiVersion" or "HasDeprecatedApiVersion" or "MapToApiVersion")) return;
        var args = call.ArgumentList.Arguments;
        if (args.Count == 1 && FactSyntax.Unwrap(args[0].Expression) is BaseObjectCreationExpressionSyntax { ArgumentList: { } created })
            args = created.Arguments;
        var parts = new List<string>();
        foreach (var arg in args.Take(2))
        {
            var constant = model.GetConstantValue(arg.Expression);
            if (!constant.HasValue || constant.Value is null) return;
            parts.Add(constant.Value switch
            {
                double d => d.ToString("0.0###", System.Globalization.CultureInfo.InvariantCulture),
                IFormattable f => f.ToString(null, System.Globalization.CultureInfo.InvariantCulture),
                var v => v.ToString() ?? "",
            });
        }
        if (parts.Count == 1 && !parts[0].Contains('.')) parts.Add("0");
        if (parts.Count > 0) versions.Add(string.Join(".", parts));
    }

    /// <summary>The versions an ApiVersionSet declares: its builder chain (`endpoints.NewApiVersionSet()
    /// .HasApiVersion(new ApiVersion(1)).ReportApiVersions().Build()`, fullstackhero's modules), written in place or
    /// held by a local or a field of the project initialized with it (another file's read with that file's model).</summary>
    private void VersionSet(ExpressionSyntax? set, SemanticModel model, List<string> versions, int depth)
    {
        if (set is null || depth > 3) return;
        set = FactSyntax.Unwrap(set);
        if (set is IdentifierNameSyntax or MemberAccessExpressionSyntax)
        {
            var held = model.GetSymbolInfo(set).Symbol switch
            {
                ILocalSymbol local => FactSyntax.LocalInitializer(local),
                IFieldSymbol { DeclaringSyntaxReferences: [var declared] }
                    when declared.GetSyntax() is VariableDeclaratorSyntax { Initializer.Value: var value } => value,
                _ => null,
            };
            if (held is null || !model.Compilation.ContainsSyntaxTree(held.SyntaxTree)) return;
            var heldModel = held.SyntaxTree == model.SyntaxTree ? model : model.Compilation.GetSemanticModel(held.SyntaxTree);
            VersionSet(held, heldModel, versions, depth + 1);
            return;
        }
        foreach (var call in FactSyntax.ChainBelow(set)) ApiVersion(call, versions, model, depth + 1);
    }

    /// <summary>`x.MapGroup("/a").MapOrders()` or `MapOrders(group)`: a group handed to a method of the
    /// solution. Syntax decides first (a MapGroup chain, a tracked group local or a route-builder
    /// parameter); only then is the call bound.</summary>
    /// <summary>A call of the solution's own `Map*` extension on a route builder (Practical.CleanArchitecture's
    /// `app.MapProcessInforEndpoint()`, whose `MapGet(path, ...)` takes `path = "/processinfor"` by default): its
    /// arguments, as for a Map{Verb} wrapper, so the routes its body maps from its parameters are listed.</summary>
    public void MapExtensionCall(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (name.Length <= 3 || !name.StartsWith("Map", StringComparison.Ordinal) || !char.IsUpper(name[3])) return;
        if (_sink.Model.GetSymbolInfo(inv).Symbol is not IMethodSymbol { ReducedFrom: { } extension } called
            || !extension.Locations.Any(l => l.IsInSource)
            || extension.Parameters[0].Type.Name is not ("IEndpointRouteBuilder" or "WebApplication" or "RouteGroupBuilder"))
            return;
        WrapperCall(inv, called, from);
    }

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
            var versions = new List<string>();
            var prefix = GroupPrefix(group, from, out var outer, versions);
            if (prefix is null) return;
            var detail = new FactDetail().Add("target", target).Add("parameter", ordinal);
            if (outer is { } passedOn) detail.Add("group_parameter", passedOn).Add("group_member", from);
            // `MapOrders(api.MapGroup("/orders").HasApiVersion(1.0))`: the routes the method maps carry the
            // versions of the group handed over.
            if (versions.Count > 0) detail.Add("api_versions", versions.Distinct().OrderBy(v => v, StringComparer.Ordinal).ToList());
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

    /// <summary>A route mapped on the enclosing method's route-builder parameter: which one, and whether it is a
    /// RouteGroupBuilder (whose prefix a caller decides; the query layer says when none is found).</summary>
    private static void AddGroupParameter(FactDetail detail, SyntaxNode at, int? parameter, string? from)
    {
        if (parameter is not { } ordinal) return;
        detail.Add("group_parameter", ordinal).Add("group_member", from);
        if (IsRouteGroupParameter(at, ordinal)) detail.Add("group_is_route_group", true);
    }

    /// <summary>The base path of a Carter module (`class OrdersModule : CarterModule` whose constructor calls
    /// `: base("/orders")`) when `at` is inside its AddRoutes override; null otherwise.</summary>
    private string? CarterBasePath(SyntaxNode at)
    {
        if (at.Ancestors().OfType<MethodDeclarationSyntax>().FirstOrDefault() is not { Identifier.ValueText: "AddRoutes" } method
            || method.Parent is not ClassDeclarationSyntax { BaseList.Types: var bases } module
            || !bases.Any(b => FactSyntax.TypeName(b.Type) == "CarterModule"))
            return null;
        // `class BooksModule() : CarterModule("/books")`: the primary constructor's base argument (Carter's samples).
        if (bases.OfType<PrimaryConstructorBaseTypeSyntax>().FirstOrDefault() is { ArgumentList.Arguments: [var given, ..] }
            && FactSyntax.ConstantString(_sink.Model, given.Expression) is { } primaryPath)
            return primaryPath;
        foreach (var ctor in module.Members.OfType<ConstructorDeclarationSyntax>())
        {
            if (ctor.Initializer is { ThisOrBaseKeyword.ValueText: "base", ArgumentList.Arguments: [var first, ..] }
                && FactSyntax.ConstantString(_sink.Model, first.Expression) is { } path)
                return path;
        }
        return null;
    }

    /// <summary>Is the enclosing method's parameter at `ordinal` a RouteGroupBuilder (a group, whose prefix a caller
    /// decides) rather than an IEndpointRouteBuilder (often the app itself, eShopOnWeb's `AddRoute(app)`)?</summary>
    private static bool IsRouteGroupParameter(SyntaxNode at, int ordinal) =>
        at.Ancestors().OfType<MethodDeclarationSyntax>().FirstOrDefault() is { } method
        && ordinal < method.ParameterList.Parameters.Count
        && (method.ParameterList.Parameters[ordinal].Type?.ToString() ?? "").EndsWith("RouteGroupBuilder", StringComparison.Ordinal);

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
            if ((FactSyntax.ConstantString(_sink.Model, item) ?? WellKnownVerb(item)) is not { } verb) return ["ANY"];
            verbs.Add(verb.ToUpperInvariant());
        }
        return verbs.Count > 0 ? verbs : ["ANY"];
    }

    /// <summary>`HttpMethods.Options` (a static readonly field, not a constant) and `HttpMethod.Get.Method`.</summary>
    private static string? WellKnownVerb(ExpressionSyntax e) => FactSyntax.Unwrap(e) switch
    {
        MemberAccessExpressionSyntax { Expression: var owner, Name.Identifier.ValueText: var verb }
            when FactSyntax.LastName(owner) == "HttpMethods" => verb,
        MemberAccessExpressionSyntax { Expression: MemberAccessExpressionSyntax inner, Name.Identifier.ValueText: "Method" }
            when FactSyntax.LastName(inner.Expression) == "HttpMethod" => inner.Name.Identifier.ValueText,
        _ => null,
    };
}
