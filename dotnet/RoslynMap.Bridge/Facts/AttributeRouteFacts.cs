using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// MVC attribute routing: the controller's [Route] prefixes combined with an action's
/// [HttpGet("...")]/[HttpPost]/.../[Route] templates, tokens replaced. An action with neither an
/// HTTP attribute nor [Route] gets no fact: conventional routing is reported where it is mapped.
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

    private sealed record Template(AttributeSyntax Attribute, string Confidence, string? Verb, string? Text);

    private sealed record Controller(string Name, string? Area, List<string?> Prefixes);

    public void Action(MethodDeclarationSyntax method, string? id)
    {
        if (method.Parent is not TypeDeclarationSyntax type) return;
        var templates = new List<Template>();
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
            templates.Add(new Template(attr, confidence, isRoute ? null : HttpVerbs[name], text));
        }
        if (templates.Count == 0) return;

        var controller = ControllerOf(type);
        // [HttpPost] with no template on a controller without [Route] is not attribute routing: the
        // action is reached through the conventional routes, with that verb.
        if (controller.Prefixes is [null] && templates.All(t => t.Verb is not null && t.Text is null))
        {
            ConventionalAction(method, id, templates.Select(t => t.Verb!).Distinct().ToList(), actionName);
            return;
        }
        var action = actionName ?? StripSuffix(method.Identifier.ValueText, "Async");
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
    /// Controller/ControllerBase, not [ApiController], which requires attribute routes) with no
    /// attribute route: a ControllerAction fact, expanded with the conventional patterns by the query
    /// layer. `verbs`: its template-less HTTP attributes (none: any method).</summary>
    public void ConventionalAction(MethodDeclarationSyntax method, string? id, IReadOnlyList<string> verbs, string? actionName = null)
    {
        if (id is null || method.Parent is not ClassDeclarationSyntax type) return;
        if (!method.Modifiers.Any(m => m.ValueText == "public")
            || method.Modifiers.Any(m => m.ValueText is "static" or "abstract" or "override")) return;
        if (ConventionalConfidence(type) is not { } confidence) return;
        foreach (var list in method.AttributeLists)
        foreach (var attr in list.Attributes)
        {
            var name = FactSyntax.AttributeName(attr);
            if (name == "NonAction") return;
            if (name == "ActionName")
                actionName = FactSyntax.ConstantString(_sink.Model, FactSyntax.PositionalArg(attr, 0)?.Expression) ?? actionName;
        }
        var controller = ControllerOf(type);
        if (controller.Prefixes is not [null]) return; // a [Route] controller: attribute routed throughout
        var action = actionName ?? StripSuffix(method.Identifier.ValueText, "Async");
        _sink.Add(FactKinds.ControllerAction, id, method.Identifier.SpanStart, confidence, controller.Name + "/" + action,
            new FactDetail().Add("controller", controller.Name).Add("action", action).Add("area", controller.Area)
                .Add("verbs", verbs).Add("handler", id));
    }

    private readonly Dictionary<ClassDeclarationSyntax, string?> _conventional = new();

    /// <summary>high: derives from MVC's Controller/ControllerBase; medium: its base does not bind but
    /// is named so; low: a POCO named *Controller; null: not a conventionally routed controller.</summary>
    private string? ConventionalConfidence(ClassDeclarationSyntax type)
    {
        if (_conventional.TryGetValue(type, out var known)) return known;
        string? result = null;
        var named = type.Identifier.ValueText.EndsWith("Controller", StringComparison.Ordinal);
        if (!named && type.BaseList is null)
        {
            _conventional[type] = null; // neither named nor derived like a controller: no model call
            return null;
        }
        var isPublic = type.Modifiers.Any(m => m.ValueText == "public") && !type.Modifiers.Any(m => m.ValueText is "abstract" or "static");
        var attributes = type.AttributeLists.SelectMany(l => l.Attributes).Select(FactSyntax.AttributeName).ToList();
        if (isPublic && !attributes.Contains("NonController")
            && _sink.Model.GetDeclaredSymbol(type) is INamedTypeSymbol symbol && !symbol.GetAttributes().Any(IsMvcApiController))
        {
            for (var b = symbol.BaseType; b is not null && b.SpecialType != SpecialType.System_Object; b = b.BaseType)
            {
                if (b.TypeKind == TypeKind.Error)
                {
                    if (b.Name.EndsWith("Controller", StringComparison.Ordinal) || b.Name == "ControllerBase") result = Confidence.Medium;
                    break;
                }
                if (b.Name is "Controller" or "ControllerBase" && FrameworkApi.IsFrom(b, FrameworkApi.AspNetCore))
                {
                    result = Confidence.High;
                    break;
                }
                if (b.GetAttributes().Any(IsMvcApiController)) break;
            }
            if (result is null && named && symbol.BaseType is { SpecialType: SpecialType.System_Object }) result = "low";
        }
        _conventional[type] = result;
        return result;
    }

    private void Emit(Template t, string verb, string template, Controller controller, string action, string? id)
    {
        foreach (var prefix in controller.Prefixes)
        {
            var combined = RouteTemplates.Combine(prefix, template);
            var key = RouteTemplates.ReplaceTokens(combined, controller.Name, action, controller.Area);
            var detail = new FactDetail().Add("method", verb).Add("handler", id).Add("source", "attribute");
            // A token transformer (RouteTransformerFacts) rewrites the tokens' values: the query layer needs them.
            if (key != combined)
                detail.Add("template", combined).Add("controller", controller.Name).Add("action", action).Add("area", controller.Area);
            _sink.Add(FactKinds.Route, id, t.Attribute.SpanStart, t.Confidence, key, detail);
        }
    }

    private Controller ControllerOf(TypeDeclarationSyntax type)
    {
        if (_controllers.TryGetValue(type, out var known)) return known;
        var prefixes = new List<string?>();
        string? area = null;
        foreach (var list in type.AttributeLists)
        foreach (var attr in list.Attributes)
        {
            var name = FactSyntax.AttributeName(attr);
            var arg = FactSyntax.PositionalArg(attr, 0) ?? FactSyntax.NamedArg(attr, "template");
            var value = arg is null ? null : FactSyntax.ConstantString(_sink.Model, arg.Expression);
            if (name == "Route" && value is not null) prefixes.Add(value);
            else if (name == "Area" && value is not null) area = value;
        }
        if (prefixes.Count == 0) prefixes.AddRange(InheritedPrefixes(type));
        if (prefixes.Count == 0) prefixes.Add(null);
        area ??= InheritedArea(type);
        var controller = new Controller(StripSuffix(type.Identifier.ValueText, "Controller"), area, prefixes);
        _controllers[type] = controller;
        return controller;
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
                if (a.AttributeClass?.Name != "RouteAttribute" || a.ConstructorArguments.Length == 0) continue;
                if (a.ConstructorArguments[0].Value is string s) { found = true; yield return s; }
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
