using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// MVC attribute routing: the controller's [Route] prefixes combined with an action's
/// [HttpGet("...")]/[HttpPost]/.../[Route] templates, tokens replaced. An action with neither an
/// HTTP attribute nor [Route] is served at its controller's [Route] for any method, or else by the conventional
/// routes (a ControllerAction fact: conventional routing is reported where it is mapped).
/// </summary>
internal sealed class AttributeRouteFacts
{
    private static readonly Dictionary<string, string> HttpVerbs = new(StringComparer.Ordinal)
    {
        ["HttpGet"] = "GET", ["HttpPost"] = "POST", ["HttpPut"] = "PUT", ["HttpDelete"] = "DELETE",
        ["HttpPatch"] = "PATCH", ["HttpHead"] = "HEAD", ["HttpOptions"] = "OPTIONS",
    };

    private readonly FactSink _sink;
    private readonly Dictionary<TypeDeclarationSyntax, Controller> _controllers = new();

    public AttributeRouteFacts(FactSink sink)
    {
        _sink = sink;
    }

    /// <summary>Cheap syntax test for the dispatcher: does any attribute look like routing?</summary>
    public static bool IsRouteAttribute(string name) => name == "Route" || HttpVerbs.ContainsKey(name);

    internal sealed record Template(int Anchor, string Confidence, string? Verb, string? Text);

    private sealed record Controller(string Name, string? Area, List<string?> Prefixes);

    /// <summary>A method with no routing attribute MVC names (the dispatcher saw none): routed by an attribute of
    /// the solution's own (Sonarr's `[RestDeleteById]`, CustomRouteAttributes) when its class is a controller, else
    /// a conventional action candidate.</summary>
    public void UnroutedAction(MethodDeclarationSyntax method, string? id)
    {
        if (method.AttributeLists.Count > 0 && method.Parent is ClassDeclarationSyntax type
            && (type.Identifier.ValueText.EndsWith("Controller", StringComparison.Ordinal) || KindOf(type).Confidence is not null)
            && CustomTemplates(method) is { Count: > 0 } custom)
        {
            Action(method, id, custom);
            return;
        }
        // An override with no routing attribute of its own keeps the overridden action's (MVC reads them inherited).
        if (id is not null && method.Modifiers.Any(m => m.ValueText == "override") && method.Parent is ClassDeclarationSyntax owner
            && _sink.Model.GetDeclaredSymbol(method) is IMethodSymbol { OverriddenMethod: { } overridden } overriding && OverridesSource(overridden)
            // From the override itself: its own [NonAction] (Sonarr's SeriesController hiding the base's action) wins.
            && TemplatesOf(overriding, method.Identifier.SpanStart) is { NonAction: false, Templates.Count: > 0 } inherited)
        {
            if (owner.Modifiers.Any(m => m.ValueText == "abstract") || owner.TypeParameterList is not null) return;
            EmitRoutes(inherited.Templates, ControllerOf(owner), inherited.ActionName ?? StripSuffix(method.Identifier.ValueText, "Async"),
                id, verbs => ConventionalAction(method, id, verbs, inherited.ActionName));
            return;
        }
        ConventionalAction(method, id, []);
    }

    private List<Template> CustomTemplates(MemberDeclarationSyntax member)
    {
        var found = new List<Template>();
        if (_sink.Model.GetDeclaredSymbol(member) is not { } symbol) return found;
        foreach (var attribute in symbol.GetAttributes())
        {
            if (attribute.ApplicationSyntaxReference?.GetSyntax() is not AttributeSyntax syntax) continue;
            if (CustomRouteAttributes.Of(attribute, _sink.Model.Compilation) is not { } routing) continue;
            AddTemplates(found, syntax.SpanStart, routing);
        }
        return found;
    }

    public void Action(MethodDeclarationSyntax method, string? id, List<Template>? custom = null)
    {
        if (method.Parent is not TypeDeclarationSyntax type) return;
        var templates = custom ?? new List<Template>();
        string? actionName = null;
        foreach (var list in method.AttributeLists)
        foreach (var attr in list.Attributes)
        {
            var name = FactSyntax.AttributeName(attr);
            if (name == "NonAction") return;
            if (name == "ActionName")
            {
                actionName = FactSyntax.ConstantString(_sink.Model, FactSyntax.PositionalArg(attr, 0)?.Expression);
                continue;
            }
            var isRoute = name == "Route";
            if (!isRoute && !HttpVerbs.ContainsKey(name)) continue;
            var (binding, _) = FrameworkApi.Classify(_sink.Model, attr, FrameworkApi.AspNetCore);
            if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) continue;
            var arg = FactSyntax.PositionalArg(attr, 0) ?? FactSyntax.NamedArg(attr, "template");
            var text = arg is null ? null : FactSyntax.ConstantString(_sink.Model, arg.Expression);
            if (arg is not null && text is null) continue; // a template we cannot read
            if (isRoute && text is null) continue;
            templates.Add(new Template(attr.SpanStart, confidence, isRoute ? null : HttpVerbs[name], text));
        }
        if (templates.Count == 0) return;
        // An abstract (or open generic) controller is no controller: its actions are each derived controller's.
        if (type.Modifiers.Any(m => m.ValueText == "abstract") || type.TypeParameterList is not null) return;

        var controller = ControllerOf(type);
        var action = actionName ?? StripSuffix(method.Identifier.ValueText, "Async");
        EmitRoutes(templates, controller, action, id,
            verbs => ConventionalAction(method, id, verbs, actionName));
    }

    private void EmitRoutes(List<Template> templates, Controller controller, string action, string? id,
        Action<IReadOnlyList<string>> conventional)
    {
        // [HttpPost] with no template on a controller without [Route] is not attribute routing: the
        // action is reached through the conventional routes, with that verb.
        if (controller.Prefixes is [null] && templates.All(t => t.Verb is not null && t.Text is null))
        {
            conventional(templates.Select(t => t.Verb!).Distinct().ToList());
            return;
        }
        // [Route] on an action takes the verbs of its template-less HTTP attributes (else ANY);
        // an HTTP attribute with its own template is a route of its own.
        var bareVerbs = templates.Where(t => t.Verb is not null && t.Text is null).ToList();
        var hasActionRoute = templates.Any(t => t.Verb is null);
        foreach (var t in templates)
        {
            if (t.Verb is null)
            {
                if (bareVerbs.Count == 0) Emit(t, "ANY", t.Text!, controller, action, id);
                foreach (var v in bareVerbs) Emit(t, v.Verb!, t.Text!, controller, action, id);
            }
            else if (t.Text is not null) Emit(t, t.Verb, t.Text, controller, action, id);
            else if (!hasActionRoute) Emit(t, t.Verb, "", controller, action, id);
        }
    }

    /// <summary>A public instance method of a controller (class named *Controller, or deriving from
    /// Controller/ControllerBase) with no attribute route: on a controller with a [Route] (its own, a base's, or
    /// another part's of a partial class) a route at that prefix for any method (NFCController's verb-less
    /// `SubmitLNURLWithdrawForInvoice` under `[Route("plugins/NFC")]`); else, not [ApiController], which requires
    /// attribute routes, a ControllerAction fact, expanded with the conventional patterns by the query layer.
    /// `verbs`: its template-less HTTP attributes (none: any method).</summary>
    public void ConventionalAction(MethodDeclarationSyntax method, string? id, IReadOnlyList<string> verbs, string? actionName = null)
    {
        if (id is null || method.Parent is not ClassDeclarationSyntax type) return;
        if (!method.Modifiers.Any(m => m.ValueText == "public")
            || method.Modifiers.Any(m => m.ValueText is "static" or "abstract")) return;
        // MVC takes no generic method, nor IDisposable's Dispose, for an action.
        if (method.TypeParameterList is not null || (method.Identifier.ValueText == "Dispose" && method.ParameterList.Parameters.Count == 0)) return;
        if (KindOf(type) is not { Confidence: { } confidence } kind) return;
        // An override of the framework's (OnActionExecuting, [NonAction] there) is no action; one of a base
        // controller of the solution is.
        if (method.Modifiers.Any(m => m.ValueText == "override")
            && (_sink.Model.GetDeclaredSymbol(method) is not IMethodSymbol overriding || !OverridesSource(overriding))) return;
        foreach (var list in method.AttributeLists)
        foreach (var attr in list.Attributes)
        {
            var name = FactSyntax.AttributeName(attr);
            if (name == "NonAction") return;
            if (name == "ActionName")
                actionName = FactSyntax.ConstantString(_sink.Model, FactSyntax.PositionalArg(attr, 0)?.Expression) ?? actionName;
        }
        var controller = ControllerOf(type);
        var action = actionName ?? StripSuffix(method.Identifier.ValueText, "Async");
        // A [Route] controller is attribute routed throughout: an action without a template of its own is served at
        // the controller's route, and is never conventionally reachable.
        if (controller.Prefixes is not [null]) RoutedAtController(method.Identifier.SpanStart, confidence, controller, action, id);
        else if (!kind.Api) AddControllerAction(id, method.Identifier.SpanStart, confidence, controller, action, verbs);
    }

    /// <summary>An action with no routing attribute on an attribute-routed controller: ASP.NET serves it at the
    /// controller's [Route] templates for any HTTP method (two such actions on one controller are ambiguous at run
    /// time, which is ASP.NET's to report: both are listed).</summary>
    private void RoutedAtController(int anchor, string confidence, Controller controller, string action, string id) =>
        Emit(new Template(anchor, confidence, null, ""), "ANY", "", controller, action, id);

    private void AddControllerAction(string id, int anchor, string confidence, Controller controller, string action,
        IReadOnlyList<string> verbs) =>
        _sink.Add(FactKinds.ControllerAction, id, anchor, confidence, controller.Name + "/" + action,
            new FactDetail().Add("controller", controller.Name).Add("action", action).Add("area", controller.Area)
                .Add("verbs", verbs).Add("handler", id));

    /// <summary>A routing attribute of the solution's own: one template per verb it gives, or one without a verb.</summary>
    private static void AddTemplates(List<Template> templates, int anchor, CustomRouteAttributes.Routing routing)
    {
        if (routing.Verbs.Count == 0) templates.Add(new Template(anchor, Confidence.High, null, routing.Template));
        foreach (var verb in routing.Verbs) templates.Add(new Template(anchor, Confidence.High, verb, routing.Template));
    }

    private static bool OverridesSource(IMethodSymbol method)
    {
        var root = method;
        while (root.OverriddenMethod is { } next) root = next;
        return root.Locations.Any(l => l.IsInSource);
    }

    /// <summary>The actions a concrete controller inherits from base classes of the solution (Sonarr's
    /// `ProviderControllerBase&lt;...&gt;`, whose eleven actions are every provider controller's): each a route of this
    /// controller (its name, area and prefixes) handled by the base's method, at the controller's name. A method the
    /// controller (or a nearer base) declares again, overriding or hiding it, is that declaration's.</summary>
    public void InheritedActions(ClassDeclarationSyntax type)
    {
        // Named like a controller (a syntax test before any model call: this runs for every class with a base list).
        if (!type.Identifier.ValueText.EndsWith("Controller", StringComparison.Ordinal)
            || type.Modifiers.Any(m => m.ValueText is "abstract" or "static")
            || !type.Modifiers.Any(m => m.ValueText is "public" or "partial")) return;
        if (_sink.Model.GetDeclaredSymbol(type) is not INamedTypeSymbol symbol || symbol.IsGenericType
            || symbol.IsAbstract || symbol.DeclaredAccessibility != Accessibility.Public) return;
        if (!IsController(symbol)) return;
        // A partial controller: once, at the part declaring its base class.
        if (symbol.DeclaringSyntaxReferences.Length > 1
            && symbol.DeclaringSyntaxReferences.First(r => r.GetSyntax() is ClassDeclarationSyntax { BaseList: not null }).GetSyntax() != type) return;
        var declared = new HashSet<string>(symbol.GetMembers().OfType<IMethodSymbol>().Select(Signature), StringComparer.Ordinal);
        Controller? controller = null;
        for (var b = symbol.BaseType; b is not null && b.Locations.Any(l => l.IsInSource); b = b.BaseType)
        {
            if (FrameworkApi.IsFrom(b, FrameworkApi.AspNetCore)) break;
            foreach (var method in b.GetMembers().OfType<IMethodSymbol>())
            {
                if (!declared.Add(Signature(method)) || method.MethodKind != MethodKind.Ordinary
                    || method.DeclaredAccessibility != Accessibility.Public || method.IsStatic || method.IsAbstract
                    || method.IsGenericMethod || (method.IsOverride && !OverridesSource(method))
                    || (method.Name == "Dispose" && method.Parameters.Length == 0)) continue;
                if (_sink.IdOf(method.OriginalDefinition) is not { } id) continue;
                controller ??= ControllerOf(type);
                InheritedAction(type, method, id, controller);
            }
        }
    }

    private void InheritedAction(ClassDeclarationSyntax type, IMethodSymbol method, string id, Controller controller)
    {
        var (templates, actionName, nonAction) = TemplatesOf(method, type.Identifier.SpanStart);
        if (nonAction) return;
        var action = actionName ?? StripSuffix(method.Name, "Async");
        if (templates.Count > 0) EmitRoutes(templates, controller, action, id, verbs => InheritedConventional(type, id, controller, action, verbs));
        else InheritedConventional(type, id, controller, action, []);
    }

    /// <summary>A method's routing attributes read from its symbol (MVC's own and the solution's), the first of its
    /// overridden chain that has any (attributes are inherited), its [ActionName] and whether it is [NonAction].</summary>
    private (List<Template> Templates, string? ActionName, bool NonAction) TemplatesOf(IMethodSymbol method, int anchor)
    {
        for (var m = method; m is not null; m = m.OverriddenMethod)
        {
            string? actionName = null;
            var templates = new List<Template>();
            foreach (var attribute in m.GetAttributes())
            {
                var name = attribute.AttributeClass?.Name;
                if (name == "NonActionAttribute") return ([], null, true);
                var first = attribute.ConstructorArguments.Length > 0 ? attribute.ConstructorArguments[0].Value as string : null;
                if (name == "ActionNameAttribute") actionName = first ?? actionName;
                else if (name == "RouteAttribute" && first is not null) templates.Add(new Template(anchor, Confidence.High, null, first));
                else if (name is not null && HttpVerbs.TryGetValue(StripSuffix(name, "Attribute"), out var verb)
                         && attribute.AttributeClass is { } cls && FrameworkApi.IsFrom(cls, FrameworkApi.AspNetCore))
                    templates.Add(new Template(anchor, Confidence.High, verb, first));
                else if (CustomRouteAttributes.Of(attribute, _sink.Model.Compilation) is { } routing)
                    AddTemplates(templates, anchor, routing);
            }
            if (templates.Count > 0 || actionName is not null || !m.IsOverride) return (templates, actionName, false);
        }
        return ([], null, false);
    }

    /// <summary>An inherited action with no template of its own: at the derived controller's [Route] for any method
    /// (BTCPay's UIEmailRuleControllerBase.EmailRulesEditCore under `[Route("server/rules")]`), else conventional.</summary>
    private void InheritedConventional(ClassDeclarationSyntax type, string id, Controller controller, string action, IReadOnlyList<string> verbs)
    {
        if (KindOf(type) is not { Confidence: { } confidence } kind) return;
        if (controller.Prefixes is not [null]) RoutedAtController(type.Identifier.SpanStart, confidence, controller, action, id);
        else if (!kind.Api) AddControllerAction(id, type.Identifier.SpanStart, confidence, controller, action, verbs);
    }

    /// <summary>A class MVC makes a controller: named *Controller or deriving from its ControllerBase, not [NonController].</summary>
    private static bool IsController(INamedTypeSymbol type)
    {
        if (type.GetAttributes().Any(a => a.AttributeClass?.Name == "NonControllerAttribute")) return false;
        if (type.Name.EndsWith("Controller", StringComparison.Ordinal)) return true;
        for (var b = type.BaseType; b is not null; b = b.BaseType)
        {
            if (b.Name == "ControllerBase" && FrameworkApi.IsFrom(b, FrameworkApi.AspNetCore)) return true;
        }
        return false;
    }

    private static string Signature(IMethodSymbol method) =>
        method.Name + "(" + string.Join(",", method.Parameters.Select(p => p.Type.ToDisplayString())) + ")";

    /// <summary>How sure we are a class is a controller, and whether MVC's [ApiController] (its own or a base's)
    /// makes it attribute routed only.</summary>
    private sealed record ControllerKind(string? Confidence, bool Api);

    private static readonly ControllerKind NoController = new(null, false);
    private readonly Dictionary<ClassDeclarationSyntax, ControllerKind> _kinds = new();

    /// <summary>high: derives from MVC's Controller/ControllerBase; medium: its base does not bind but
    /// is named so; low: a POCO named *Controller; null: not a controller.</summary>
    private ControllerKind KindOf(ClassDeclarationSyntax type)
    {
        if (_kinds.TryGetValue(type, out var known)) return known;
        var result = NoController;
        var named = type.Identifier.ValueText.EndsWith("Controller", StringComparison.Ordinal);
        if (!named && type.BaseList is null && !type.Modifiers.Any(m => m.ValueText == "partial"))
        {
            _kinds[type] = result; // neither named nor derived like a controller: no model call
            return result;
        }
        // From the symbol: a partial class's modifiers, attributes and base are those of all its parts.
        if (_sink.Model.GetDeclaredSymbol(type) is INamedTypeSymbol { DeclaredAccessibility: Accessibility.Public, IsAbstract: false, IsStatic: false } symbol
            && !symbol.GetAttributes().Any(a => a.AttributeClass?.Name == "NonControllerAttribute"))
        {
            var api = symbol.GetAttributes().Any(IsMvcApiController);
            string? confidence = null;
            for (var b = symbol.BaseType; b is not null && b.SpecialType != SpecialType.System_Object; b = b.BaseType)
            {
                if (b.TypeKind == TypeKind.Error)
                {
                    if (b.Name.EndsWith("Controller", StringComparison.Ordinal) || b.Name == "ControllerBase") confidence = Confidence.Medium;
                    break;
                }
                if (b.Name is "Controller" or "ControllerBase" && FrameworkApi.IsFrom(b, FrameworkApi.AspNetCore))
                {
                    confidence = Confidence.High;
                    break;
                }
                api |= b.GetAttributes().Any(IsMvcApiController);
            }
            if (confidence is null && named && symbol.BaseType is { SpecialType: SpecialType.System_Object }) confidence = "low";
            if (confidence is not null) result = new ControllerKind(confidence, api);
        }
        _kinds[type] = result;
        return result;
    }

    private void Emit(Template t, string verb, string template, Controller controller, string action, string? id)
    {
        foreach (var prefix in controller.Prefixes)
        {
            var written = RouteTemplates.Combine(prefix, template);
            var combined = RouteTemplates.FillRouteValues(written, controller.Name, action, controller.Area, out var shortest);
            var key = RouteTemplates.ReplaceTokens(combined, controller.Name, action, controller.Area);
            var detail = new FactDetail().Add("method", verb).Add("handler", id).Add("source", "attribute");
            // `{action}` filled with the action's name: the route as written, and the URL its defaults leave.
            if (combined != written)
                detail.Add("pattern", written)
                    .Add("shortest", shortest is null ? null : RouteTemplates.ReplaceTokens(shortest, controller.Name, action, controller.Area));
            // A token transformer (RouteTransformerFacts) rewrites the tokens' values: the query layer needs them.
            if (key != combined)
                detail.Add("template", combined).Add("controller", controller.Name).Add("action", action).Add("area", controller.Area);
            _sink.Add(FactKinds.Route, id, t.Anchor, t.Confidence, key, detail);
        }
    }

    private Controller ControllerOf(TypeDeclarationSyntax type)
    {
        if (_controllers.TryGetValue(type, out var known)) return known;
        var prefixes = new List<string?>();
        string? area = null;
        // A partial class's attributes are the union over its parts: BTCPay's `[Route("stores")]` in
        // UIStoresController.cs routes the actions of UIStoresController.*.cs too.
        var parts = PartsOf(type);
        foreach (var part in parts)
        {
            var model = part.SyntaxTree == _sink.Model.SyntaxTree ? _sink.Model : _sink.Model.Compilation.GetSemanticModel(part.SyntaxTree);
            foreach (var list in part.AttributeLists)
            foreach (var attr in list.Attributes)
            {
                var name = FactSyntax.AttributeName(attr);
                var arg = FactSyntax.PositionalArg(attr, 0) ?? FactSyntax.NamedArg(attr, "template");
                var value = arg is null ? null : FactSyntax.ConstantString(model, arg.Expression);
                if (name == "Route" && value is not null) prefixes.Add(value);
                else if (name == "Area" && value is not null) area = value;
            }
        }
        if (prefixes.Count == 0 && parts.Any(p => p.AttributeLists.Count > 0))
            prefixes.AddRange(CustomTemplates(type).Where(t => t.Verb is null && t.Text is not null).Select(t => t.Text!));
        if (prefixes.Count == 0) prefixes.AddRange(InheritedPrefixes(type));
        if (prefixes.Count == 0) prefixes.Add(null);
        area ??= InheritedArea(type);
        var controller = new Controller(StripSuffix(type.Identifier.ValueText, "Controller"), area, prefixes);
        _controllers[type] = controller;
        return controller;
    }

    /// <summary>The parts of a partial type in the compilation's order (this one alone when it is not partial).</summary>
    private List<TypeDeclarationSyntax> PartsOf(TypeDeclarationSyntax type)
    {
        if (!type.Modifiers.Any(m => m.ValueText == "partial")
            || _sink.Model.GetDeclaredSymbol(type) is not INamedTypeSymbol { DeclaringSyntaxReferences.Length: > 1 } symbol) return [type];
        return symbol.DeclaringSyntaxReferences.Select(r => r.GetSyntax()).OfType<TypeDeclarationSyntax>().ToList();
    }

    /// <summary>[Route] is inherited: a base controller's prefix applies to derived controllers.</summary>
    private IEnumerable<string> InheritedPrefixes(TypeDeclarationSyntax type)
    {
        if (_sink.Model.GetDeclaredSymbol(type) is not INamedTypeSymbol symbol) yield break;
        for (var b = symbol.BaseType; b is not null && b.SpecialType != SpecialType.System_Object; b = b.BaseType)
        {
            if (FrameworkApi.IsFrom(b, FrameworkApi.AspNetCore)) yield break; // ControllerBase and friends
            var found = false;
            foreach (var a in b.GetAttributes())
            {
                var template = a.AttributeClass?.Name == "RouteAttribute" && a.ConstructorArguments.Length > 0
                    ? a.ConstructorArguments[0].Value as string
                    : CustomRouteAttributes.Of(a, _sink.Model.Compilation) is { Verbs.Count: 0, Template: { } custom } ? custom : null;
                if (template is not null) { found = true; yield return template; }
            }
            if (found) yield break;
        }
    }

    /// <summary>MVC's [ApiController] (attribute routes only), not an attribute of the solution's own that shares its
    /// name (grandnode's empty `SharedKernel.Attributes.ApiController` on every storefront controller's base); one
    /// that does not bind is taken to be MVC's.</summary>
    private static bool IsMvcApiController(AttributeData attribute) =>
        attribute.AttributeClass is { Name: "ApiControllerAttribute" } type
        && (type.TypeKind == TypeKind.Error || FrameworkApi.IsFrom(type, FrameworkApi.AspNetCore));

    /// <summary>[Area] is inherited too (grandnode's admin controllers derive from a base controller that
    /// carries it): the nearest base class's area.</summary>
    private string? InheritedArea(TypeDeclarationSyntax type)
    {
        if (_sink.Model.GetDeclaredSymbol(type) is not INamedTypeSymbol symbol) return null;
        for (var b = symbol.BaseType; b is not null && b.SpecialType != SpecialType.System_Object; b = b.BaseType)
        {
            if (FrameworkApi.IsFrom(b, FrameworkApi.AspNetCore)) return null;
            foreach (var a in b.GetAttributes())
            {
                if (a.AttributeClass?.Name == "AreaAttribute" && a.ConstructorArguments is [{ Value: string area }])
                    return area;
            }
        }
        return null;
    }

    private static string StripSuffix(string name, string suffix) =>
        name.Length > suffix.Length && name.EndsWith(suffix, StringComparison.Ordinal) ? name[..^suffix.Length] : name;
}
