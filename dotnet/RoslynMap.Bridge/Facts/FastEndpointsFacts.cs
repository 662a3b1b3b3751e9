using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// FastEndpoints (REPR endpoints; ardalis/CleanArchitecture's web layer): a class deriving from the
/// package's Endpoint&lt;...&gt;, EndpointWithoutRequest or Ep.* declares its routes in its
/// <c>Configure()</c> override: <c>Get/Post/Put/Patch/Delete(routes...)</c>, or <c>Verbs(...)</c> with
/// <c>Routes(...)</c>. The handler is the class's HandleAsync or ExecuteAsync. Nothing is mapped in
/// Program.cs (<c>app.UseFastEndpoints()</c> finds the classes), so without this no route of such an
/// app is seen.
/// </summary>
internal sealed class FastEndpointsFacts
{
    private static readonly string[] Package = ["FastEndpoints"];

    private static readonly Dictionary<string, string> VerbMethods = new(StringComparer.Ordinal)
    {
        ["Get"] = "GET", ["Post"] = "POST", ["Put"] = "PUT", ["Patch"] = "PATCH", ["Delete"] = "DELETE",
    };

    /// <summary>Base types an unbound endpoint is recognised by (the package could not be restored).</summary>
    private static readonly HashSet<string> BaseNames = new(StringComparer.Ordinal)
    {
        "Endpoint", "EndpointWithoutRequest", "EndpointWithMapping", "EndpointWithoutRequestWithMapping", "Req", "Res",
        "NoReq", "ReqRes", "Ep",
    };

    private readonly FactSink _sink;

    public FastEndpointsFacts(FactSink sink)
    {
        _sink = sink;
    }

    /// <summary>Cheap syntax test: an override of a parameterless Configure in a class with a base list.</summary>
    public static bool IsCandidate(MethodDeclarationSyntax method) =>
        method.Identifier.ValueText == "Configure" && method.ParameterList.Parameters.Count == 0
        && method.Modifiers.Any(SyntaxKind.OverrideKeyword) && method.Parent is ClassDeclarationSyntax { BaseList: not null };

    public void Configure(MethodDeclarationSyntax method, string? configureId)
    {
        if (method.Parent is not ClassDeclarationSyntax type) return;
        var read = new EndpointConfig();
        Read(method, _sink.Model, read, own: true, depth: 0);
        if (read.Routes.Count == 0 || read.Verbs.Count == 0) return;
        if (EndpointConfidence(type) is not { } confidence) return;
        var handler = Handler(type) ?? configureId;
        // The endpoint class FastEndpoints' assembly scan finds, when its handler is a base class's (TestHarness'
        // `PingV1 : Ping` overrides Configure alone): symbols_unused keeps it, as it keeps a handler's class.
        var endpoint = _sink.IdOf(_sink.Model.GetDeclaredSymbol(type));
        foreach (var (route, anchor) in read.Routes)
        foreach (var verb in read.Verbs.Distinct())
        {
            // A route inherited through base.Configure() is anchored at this Configure: its text is elsewhere.
            Emit(read, verb, route, anchor ?? method.Identifier.SpanStart, handler, confidence, endpoint);
        }
    }

    /// <summary>One Route fact: the route as written, what the query layer puts around it in `fe_*`.</summary>
    private void Emit(EndpointConfig read, string verb, string route, int anchor, string? handler, string confidence,
                      string? endpoint = null) =>
        _sink.Add(FactKinds.Route, handler, anchor, confidence, RouteTemplates.Normalize(route),
            new FactDetail().Add("method", verb).Add("handler", handler).Add("source", "fastendpoints")
                .Add("endpoint", handler is not null && endpoint is not null && !handler[2..].StartsWith(endpoint[2..] + ".", StringComparison.Ordinal) ? endpoint : null)
                .Add("fe_group", read.Group).Add("fe_group_name", read.GroupName).Add("fe_route_prefix", read.PrefixOverride)
                .Add("fe_version", read.Version));

    /// <summary>What a Configure() declares, its base class's first when it calls base.Configure() (FastEndpoints'
    /// TestHarness: `Endpoint_V1 : Endpoint` keeps the routes and adds `Version(1)`).</summary>
    private sealed class EndpointConfig
    {
        public readonly List<string> Verbs = new();
        public readonly List<(string Route, int? Anchor)> Routes = new();
        public string? Group, GroupName, PrefixOverride;
        public int? Version;
    }

    private void Read(MethodDeclarationSyntax method, SemanticModel model, EndpointConfig read, bool own, int depth)
    {
        var body = (SyntaxNode?)method.Body ?? method.ExpressionBody;
        if (body is null) return;
        foreach (var inv in body.DescendantNodes().OfType<InvocationExpressionSyntax>())
        {
            // Group<Administration>(): the group class whose constructor Configure()s a prefix.
            if (inv.Expression is GenericNameSyntax { Identifier.ValueText: "Group", TypeArgumentList.Arguments: [var groupType] })
            {
                (read.Group, read.GroupName) = GroupOf(groupType, model);
                continue;
            }
            if (inv.Expression is MemberAccessExpressionSyntax { Expression: BaseExpressionSyntax, Name.Identifier.ValueText: "Configure" }
                && depth < 3 && BaseConfigure(inv, model) is { } inherited)
            {
                var baseModel = inherited.SyntaxTree == model.SyntaxTree ? model : model.Compilation.GetSemanticModel(inherited.SyntaxTree);
                Read(inherited, baseModel, read, own: false, depth + 1);
                continue;
            }
            var name = OwnCallName(inv);
            if (name is null) continue;
            if (VerbMethods.TryGetValue(name, out var verb))
            {
                read.Verbs.Add(verb);
                // Get(route, r => r.Id): the expression names the request's route parameter, not a route.
                var args = inv.ArgumentList.Arguments;
                var count = args.Count == 2 && FactSyntax.IsLambda(args[1].Expression) ? 1 : args.Count;
                for (var i = 0; i < count; i++) AddRoute(read, model, args[i].Expression, own);
            }
            else if (name == "Verbs")
            {
                foreach (var arg in inv.ArgumentList.Arguments) AddVerb(read.Verbs, model, arg.Expression);
            }
            else if (name == "Routes")
            {
                foreach (var arg in inv.ArgumentList.Arguments) AddRoute(read, model, arg.Expression, own);
            }
            else if (name == "Version" && inv.ArgumentList.Arguments.Count > 0)
            {
                read.Version = FactSyntax.ConstantInt(model, inv.ArgumentList.Arguments[0].Expression);
            }
            else if (name == "DontVersion")
            {
                read.Version = 0; // no version segment, whatever the app's DefaultVersion
            }
            else if (name == "RoutePrefixOverride" && inv.ArgumentList.Arguments is [var replacement])
            {
                // This endpoint's own prefix instead of the app's RoutePrefix ("" for none).
                read.PrefixOverride = replacement.Expression is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Empty" }
                    ? ""
                    : FactSyntax.ConstantString(model, replacement.Expression);
            }
        }
    }

    /// <summary>`Group&lt;T&gt;`'s T: its id, or its name when it does not bind (matched by name in the query layer).</summary>
    private (string? Id, string? Name) GroupOf(TypeSyntax groupType, SemanticModel model)
    {
        var id = _sink.IdOf(model.GetSymbolInfo(groupType).Symbol);
        return (id, id is null ? FactSyntax.TypeName(groupType) : null);
    }

    /// <summary>The base class's Configure override a `base.Configure()` call runs, when it is this compilation's source.</summary>
    private static MethodDeclarationSyntax? BaseConfigure(InvocationExpressionSyntax call, SemanticModel model) =>
        model.GetSymbolInfo(call).Symbol is IMethodSymbol { DeclaringSyntaxReferences: [var reference] }
        && reference.GetSyntax() is MethodDeclarationSyntax declaration
        && model.Compilation.ContainsSyntaxTree(declaration.SyntaxTree)
            ? declaration
            : null;

    /// <summary>A group class (`sealed class Administration : Group` or `SubGroup&lt;Parent&gt;`) whose constructor
    /// calls `Configure("admin", ep => ...)`: a FastEndpointsGroup fact, key the prefix, detail its parent group.</summary>
    public static bool IsGroupConstructor(ConstructorDeclarationSyntax ctor) =>
        ctor.Parent is ClassDeclarationSyntax { BaseList.Types: var bases }
        && bases.Any(b => FactSyntax.TypeName(b.Type) is "Group" or "SubGroup");

    public void GroupConstructor(ConstructorDeclarationSyntax ctor)
    {
        var body = (SyntaxNode?)ctor.Body ?? ctor.ExpressionBody;
        if (body is null || ctor.Parent is not ClassDeclarationSyntax type) return;
        var configure = body.DescendantNodes().OfType<InvocationExpressionSyntax>()
            .FirstOrDefault(i => OwnCallName(i) == "Configure" && i.ArgumentList.Arguments.Count >= 1);
        if (configure is null || FactSyntax.ConstantString(_sink.Model, configure.ArgumentList.Arguments[0].Expression) is not { } prefix) return;
        if (_sink.Model.GetDeclaredSymbol(type) is not INamedTypeSymbol symbol || _sink.IdOf(symbol) is not { } id) return;
        var baseType = symbol.BaseType;
        string? confidence = baseType switch
        {
            null => null,
            { TypeKind: TypeKind.Error } => baseType.Name is "Group" or "SubGroup" ? Confidence.Medium : null,
            _ when FrameworkApi.IsFrom(baseType, Package) => Confidence.High,
            _ => null,
        };
        if (confidence is null) return;
        var parent = baseType is { Name: "SubGroup", TypeArguments: [var outer] } ? _sink.IdOf(outer) : null;
        var parentName = parent is null && baseType is { Name: "SubGroup", TypeArguments: [var unbound] } ? unbound.Name : null;
        _sink.Add(FactKinds.FastEndpointsGroup, id, configure.SpanStart, confidence, prefix,
            new FactDetail().Add("parent", parent).Add("parent_name", parentName).Add("name", symbol.Name));
    }

    /// <summary>`app.UseFastEndpoints(c => c.Endpoints.RoutePrefix = "api")`: the prefix of every endpoint.</summary>
    public void RoutePrefix(AssignmentExpressionSyntax assign, string? from)
    {
        if (assign.Left is not MemberAccessExpressionSyntax { Expression: var owner } || FactSyntax.LastName(owner) != "Endpoints") return;
        if (!InUseFastEndpoints(assign)) return;
        if (FactSyntax.ConstantString(_sink.Model, assign.Right) is not { } prefix) return;
        _sink.Add(FactKinds.FastEndpointsRoutePrefix, from, assign.Right.SpanStart, Confidence.High, prefix, new FactDetail());
    }

    public static bool IsVersioningOption(string name) => name is "Prefix" or "DefaultVersion" or "PrependToRoute" or "RouteTemplate";

    /// <summary>`c.Versioning.Prefix = "v"`, `.DefaultVersion = 1`, `.PrependToRoute = true`, `.RouteTemplate = "{v}"` in
    /// UseFastEndpoints: how an endpoint's version shows in its route (a FastEndpointsVersioning fact, key the option).</summary>
    public void VersioningOption(AssignmentExpressionSyntax assign, string name, string? from)
    {
        if (assign.Left is not MemberAccessExpressionSyntax { Expression: var owner } || FactSyntax.LastName(owner) != "Versioning") return;
        if (!InUseFastEndpoints(assign)) return;
        var value = name switch
        {
            "DefaultVersion" => FactSyntax.ConstantInt(_sink.Model, assign.Right)?.ToString(System.Globalization.CultureInfo.InvariantCulture),
            "PrependToRoute" => assign.Right.Kind() switch
            {
                SyntaxKind.TrueLiteralExpression => "true",
                SyntaxKind.FalseLiteralExpression => "false",
                _ => null,
            },
            _ => FactSyntax.ConstantString(_sink.Model, assign.Right),
        };
        if (value is null) return;
        _sink.Add(FactKinds.FastEndpointsVersioning, from, assign.Right.SpanStart, Confidence.High, name,
            new FactDetail().Add("value", value));
    }

    private static bool InUseFastEndpoints(SyntaxNode node) =>
        node.Ancestors().OfType<InvocationExpressionSyntax>().Any(i => FactSyntax.NameText(i) == "UseFastEndpoints");

    private static readonly Dictionary<string, string> VerbAttributes = new(StringComparer.Ordinal)
    {
        ["HttpGet"] = "GET", ["HttpPost"] = "POST", ["HttpPut"] = "PUT", ["HttpPatch"] = "PATCH",
        ["HttpDelete"] = "DELETE", ["HttpHead"] = "HEAD", ["HttpOptions"] = "OPTIONS", ["HttpQuery"] = "QUERY",
    };

    /// <summary>Cheap syntax test: a class with a base list and an `[HttpGet(...)]`-like attribute of its own
    /// (FastEndpoints' attribute configuration; MVC puts those on actions, not on the class).</summary>
    public static bool IsAttributeEndpoint(TypeDeclarationSyntax type) =>
        type is ClassDeclarationSyntax { BaseList: not null }
        && type.AttributeLists.SelectMany(l => l.Attributes).Any(a => VerbAttributes.ContainsKey(FactSyntax.AttributeName(a)));

    /// <summary>`[HttpGet("/customer/login"), AllowAnonymous] class Endpoint : EndpointWithoutRequest`: the class's
    /// verb attributes are its routes (no Configure override), `[Group&lt;T&gt;]` its group.</summary>
    public void AttributeEndpoint(ClassDeclarationSyntax type)
    {
        var read = new EndpointConfig(); // its group; verbs pair with their attribute's routes
        var routes = new List<(string Verb, string Route, int Anchor)>();
        foreach (var attr in type.AttributeLists.SelectMany(l => l.Attributes))
        {
            if (attr.Name is GenericNameSyntax { Identifier.ValueText: "Group" or "GroupAttribute", TypeArgumentList.Arguments: [var groupType] })
            {
                (read.Group, read.GroupName) = GroupOf(groupType, _sink.Model);
                continue;
            }
            if (!VerbAttributes.TryGetValue(FactSyntax.AttributeName(attr), out var verb)) continue;
            foreach (var arg in attr.ArgumentList?.Arguments ?? default)
            {
                if (arg.NameEquals is null && FactSyntax.ConstantString(_sink.Model, arg.Expression) is { } route)
                    routes.Add((verb, route, arg.SpanStart));
            }
        }
        if (routes.Count == 0 || EndpointConfidence(type) is not { } confidence) return;
        var handler = Handler(type) ?? _sink.IdOf(_sink.Model.GetDeclaredSymbol(type));
        foreach (var (verb, route, anchor) in routes) Emit(read, verb, route, anchor, handler, confidence);
    }

    /// <summary>`Get(...)` or `this.Get(...)`: a call on the endpoint itself.</summary>
    private static string? OwnCallName(InvocationExpressionSyntax inv) => inv.Expression switch
    {
        IdentifierNameSyntax id => id.Identifier.ValueText,
        MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax, Name: var n } => n.Identifier.ValueText,
        _ => null,
    };

    private static void AddRoute(EndpointConfig read, SemanticModel model, ExpressionSyntax e, bool own)
    {
        if (FactSyntax.ConstantString(model, e) is { } route) read.Routes.Add((route, own ? e.SpanStart : null));
    }

    /// <summary>`Http.PUT` (the package's enum) or a verb string.</summary>
    private static void AddVerb(List<string> verbs, SemanticModel model, ExpressionSyntax e)
    {
        var text = e is MemberAccessExpressionSyntax { Name: var n } ? n.Identifier.ValueText : FactSyntax.ConstantString(model, e);
        if (!string.IsNullOrEmpty(text)) verbs.Add(text.ToUpperInvariant());
    }

    /// <summary>high: a base type comes from the FastEndpoints package; medium: a base does not bind but is
    /// named like one of its endpoint types; null: some other class overriding a Configure().</summary>
    private string? EndpointConfidence(ClassDeclarationSyntax type)
    {
        if (_sink.Model.GetDeclaredSymbol(type) is not INamedTypeSymbol symbol) return null;
        for (var b = symbol.BaseType; b is not null && b.SpecialType != SpecialType.System_Object; b = b.BaseType)
        {
            if (b.TypeKind == TypeKind.Error) return BaseNames.Contains(b.Name) ? Confidence.Medium : null;
            if (FrameworkApi.IsFrom(b, Package)) return Confidence.High;
        }
        return null;
    }

    /// <summary>The endpoint's HandleAsync (or ExecuteAsync) declared in source, in any part of the class.</summary>
    private string? Handler(ClassDeclarationSyntax type)
    {
        if (_sink.Model.GetDeclaredSymbol(type) is not INamedTypeSymbol declared) return null;
        // The class's own, else the one it inherits from an endpoint class of the solution (`Endpoint_V1 : Endpoint`).
        for (var symbol = declared; symbol is not null && symbol.Locations.Any(l => l.IsInSource); symbol = symbol.BaseType)
        {
            foreach (var name in new[] { "HandleAsync", "ExecuteAsync" })
            {
                var method = symbol.GetMembers(name).OfType<IMethodSymbol>().FirstOrDefault(m => m.Locations.Any(l => l.IsInSource));
                if (method is not null) return _sink.IdOf(method);
            }
        }
        return null;
    }
}
