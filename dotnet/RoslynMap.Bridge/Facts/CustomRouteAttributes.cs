using System.Globalization;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Routing attributes a solution declares itself (Sonarr's): a class deriving from MVC's HTTP attributes
/// (`RestDeleteByIdAttribute : HttpDeleteAttribute` calling `base("{id:int}")`), or implementing
/// IRouteTemplateProvider / IActionHttpMethodProvider (`[V3ApiController]`, whose constructor sets
/// `Template = $"api/v{version}/{resource}"`, or `Template => "{id:int}"` with `HttpMethods => new[] { "GET" }`).
/// The verb and template are read from the attribute's source: its constructors are followed from the arguments
/// the attribute is applied with (defaults included) through `: base(...)` to the framework's, or to an assignment
/// of `Template`; a value the code computes otherwise leaves the attribute unread (null), never guessed.
/// </summary>
internal static class CustomRouteAttributes
{
    private static readonly Dictionary<string, string> FrameworkVerbs = new(StringComparer.Ordinal)
    {
        ["HttpGetAttribute"] = "GET", ["HttpPostAttribute"] = "POST", ["HttpPutAttribute"] = "PUT",
        ["HttpDeleteAttribute"] = "DELETE", ["HttpPatchAttribute"] = "PATCH", ["HttpHeadAttribute"] = "HEAD",
        ["HttpOptionsAttribute"] = "OPTIONS",
    };

    private const string This = "this.";  // a member the constructor assigned, among the parameters' values

    /// <summary>What one applied attribute routes: its verbs (none: any) and template (null: none).</summary>
    public sealed record Routing(IReadOnlyList<string> Verbs, string? Template);

    /// <summary>The routing of an attribute of the solution's own, or null when it routes nothing (or is MVC's own
    /// [Route]/[HttpGet], which the syntax already reads).</summary>
    public static Routing? Of(AttributeData attribute, Compilation compilation)
    {
        if (attribute.AttributeClass is not { } type || !type.Locations.Any(l => l.IsInSource)) return null;
        if (attribute.AttributeConstructor is not { } constructor) return null;
        var key = constructor.ToDisplayString() + "(" + string.Join(",", attribute.ConstructorArguments.Select(a => a.ToCSharpString())) + ")";
        return Readings.GetValue(compilation, _ => new()).GetOrAdd(key, _ => Read(attribute, type, compilation));
    }

    private static Routing? Read(AttributeData attribute, INamedTypeSymbol type, Compilation compilation)
    {
        var verbs = new List<string>();
        string? frameworkBase = null;
        var providesTemplate = false;
        for (var t = type; t is not null && t.SpecialType != SpecialType.System_Object; t = t.BaseType)
        {
            if (FrameworkApi.IsFrom(t, FrameworkApi.AspNetCore))
            {
                if (FrameworkVerbs.TryGetValue(t.Name, out var verb)) verbs.Add(verb);
                if (t.Name is "RouteAttribute" or "HttpMethodAttribute" || FrameworkVerbs.ContainsKey(t.Name)) frameworkBase = t.Name;
                break;
            }
            if (t.AllInterfaces.Any(i => i.Name == "IRouteTemplateProvider")) providesTemplate = true;
        }
        if (frameworkBase is null && !providesTemplate && !type.AllInterfaces.Any(i => i.Name == "IActionHttpMethodProvider"))
            return null;
        if (verbs.Count == 0) verbs.AddRange(DeclaredVerbs(type, compilation));
        var values = new Dictionary<string, object?>(StringComparer.Ordinal);
        string? template = null;
        var known = attribute.AttributeConstructor is { } ctor
                    && Bind(ctor, attribute.ConstructorArguments, values)
                    && FollowConstructor(ctor, values, compilation, 0, out template);
        if (!known) return null;
        template ??= DeclaredTemplate(type, compilation);
        return verbs.Count == 0 && template is null ? null : new Routing(verbs, template);
    }

    private static bool Bind(IMethodSymbol ctor, IReadOnlyList<TypedConstant> args, Dictionary<string, object?> values)
    {
        if (args.Count != ctor.Parameters.Length) return false;
        for (var i = 0; i < args.Count; i++)
        {
            if (args[i].Kind == TypedConstantKind.Array) return false;
            values[ctor.Parameters[i].Name] = args[i].Value;
        }
        return true;
    }

    /// <summary>Through one constructor and its `: base(...)` / `: this(...)` chain: the template the framework's
    /// constructor is handed, unless a constructor's own `Template = ...` (which runs after its initializer) sets
    /// it. False when a step cannot be read.</summary>
    private static bool FollowConstructor(IMethodSymbol ctor, Dictionary<string, object?> values, Compilation compilation,
        int depth, out string? template)
    {
        template = null;
        if (depth > 8) return false;
        if (FrameworkApi.IsFrom(ctor, FrameworkApi.AspNetCore))
        {
            // HttpGetAttribute(string template), RouteAttribute(string template); HttpPostAttribute(): none.
            template = values.TryGetValue("template", out var t) ? t as string : null;  // AcceptVerbs("GET") is a verb
            return true;
        }
        if (ctor.DeclaringSyntaxReferences.Length == 0)
        {
            // An implicit constructor calls its base's parameterless one (`class RestPostById : HttpPostAttribute {}`).
            return ctor.ContainingType.BaseType?.InstanceConstructors.FirstOrDefault(c => c.Parameters.Length == 0) is not { } implied
                   || FollowConstructor(implied, new Dictionary<string, object?>(StringComparer.Ordinal), compilation, depth + 1, out template);
        }
        if (ctor.DeclaringSyntaxReferences is not [var reference]
            || reference.GetSyntax() is not ConstructorDeclarationSyntax syntax
            || ModelFor(compilation, syntax.SyntaxTree) is not { } model)
            return false;
        string? own = null;
        var straight = Assignments(syntax).ToHashSet();
        // A write this reading cannot follow (`Template += r`, one inside an `if`): the template is unread.
        if ((syntax.Body ?? (SyntaxNode?)syntax.ExpressionBody)?.DescendantNodes().OfType<AssignmentExpressionSyntax>()
            .Any(a => Assigned(a) == "Template" && (!straight.Contains(a) || !a.IsKind(SyntaxKind.SimpleAssignmentExpression))) == true)
            return false;
        foreach (var assigned in straight)
        {
            if (Assigned(assigned) is not { } member || !assigned.IsKind(SyntaxKind.SimpleAssignmentExpression)) continue;
            var value = Evaluate(assigned.Right, values, model);
            // A parameter written over (`resource = "v3/" + resource`) reads as its new value from then on; a property
            // set before the template uses it (Sonarr's `Version = version; Template = $"feed/v{Version}/..."`).
            var isParameter = model.GetSymbolInfo(assigned.Left).Symbol is IParameterSymbol;
            values[isParameter ? member : This + member] = value;
            if (member != "Template" || isParameter) continue;
            if (value is not string text) return false;
            own = text;
        }
        string? inherited = null;
        if (syntax.Initializer is { } initializer)
        {
            if (model.GetSymbolInfo(initializer).Symbol is not IMethodSymbol next) return false;
            var handed = new Dictionary<string, object?>(StringComparer.Ordinal);
            var args = initializer.ArgumentList.Arguments;
            for (var i = 0; i < next.Parameters.Length; i++)
            {
                var parameter = next.Parameters[i];
                var arg = args.FirstOrDefault(a => a.NameColon?.Name.Identifier.ValueText == parameter.Name)
                          ?? (i < args.Count && args[i].NameColon is null ? args[i] : null);
                if (arg is not null)
                {
                    if (Evaluate(arg.Expression, values, model) is not { } value) return false;
                    handed[parameter.Name] = value;
                }
                else if (parameter.HasExplicitDefaultValue) handed[parameter.Name] = parameter.ExplicitDefaultValue;
                else return false;
            }
            if (!FollowConstructor(next, handed, compilation, depth + 1, out inherited)) return false;
        }
        template = own ?? inherited;
        return true;
    }

    private static string? Assigned(AssignmentExpressionSyntax assignment) => assignment.Left switch
    {
        IdentifierNameSyntax id => id.Identifier.ValueText,
        MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax } access => access.Name.Identifier.ValueText,
        _ => null,
    };

    private static IEnumerable<AssignmentExpressionSyntax> Assignments(ConstructorDeclarationSyntax ctor)
    {
        if (ctor.ExpressionBody?.Expression is AssignmentExpressionSyntax single) yield return single;
        if (ctor.Body is null) yield break;
        foreach (var statement in ctor.Body.Statements)
        {
            if (statement is ExpressionStatementSyntax { Expression: AssignmentExpressionSyntax a }) yield return a;
        }
    }

    /// <summary>A constant, a constructor parameter's value, or an interpolation / concatenation of them.</summary>
    private static object? Evaluate(ExpressionSyntax e, Dictionary<string, object?> values, SemanticModel model)
    {
        e = FactSyntax.Unwrap(e);
        switch (e)
        {
            case IdentifierNameSyntax id when model.GetSymbolInfo(id).Symbol is { } symbol
                                              && symbol is IParameterSymbol or IPropertySymbol { IsStatic: false } or IFieldSymbol { IsStatic: false, IsConst: false }:
                return values.TryGetValue(symbol is IParameterSymbol ? symbol.Name : This + symbol.Name, out var v) ? v : null;
            case InterpolatedStringExpressionSyntax interpolated:
                var text = new StringBuilder();
                foreach (var part in interpolated.Contents)
                {
                    if (part is InterpolatedStringTextSyntax literal) text.Append(literal.TextToken.ValueText);
                    else if (part is InterpolationSyntax { AlignmentClause: null, FormatClause: null } hole
                             && Text(Evaluate(hole.Expression, values, model)) is { } value) text.Append(value);
                    else return null;
                }
                return text.ToString();
            case BinaryExpressionSyntax { RawKind: (int)SyntaxKind.AddExpression } sum:
                return Text(Evaluate(sum.Left, values, model)) is { } left && Text(Evaluate(sum.Right, values, model)) is { } right
                    ? left + right
                    : null;
        }
        var constant = model.GetConstantValue(e);
        return constant.HasValue ? constant.Value : FactSyntax.ConstantString(model, e);
    }

    private static string? Text(object? value) => value switch
    {
        string s => s,
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => null,
    };

    /// <summary>`public string Template => "{id:int}";` or `{ get; } = "..."` in the attribute or a base of it.</summary>
    private static string? DeclaredTemplate(INamedTypeSymbol type, Compilation compilation) =>
        DeclaredValue(type, "Template", compilation) as string;

    /// <summary>`public IEnumerable&lt;string&gt; HttpMethods => new[] { "GET" };`</summary>
    private static IEnumerable<string> DeclaredVerbs(INamedTypeSymbol type, Compilation compilation)
    {
        foreach (var property in Members(type, "HttpMethods"))
        {
            var value = PropertyValue(property);
            if (value is null || ModelFor(compilation, value.SyntaxTree) is not { } model) continue;
            var elements = FactSyntax.Unwrap(value) switch
            {
                ImplicitArrayCreationExpressionSyntax a => a.Initializer.Expressions,
                ArrayCreationExpressionSyntax { Initializer: { } i } => i.Expressions,
                ObjectCreationExpressionSyntax { Initializer: { } i } => i.Expressions,
                CollectionExpressionSyntax c => SyntaxFactory.SeparatedList(c.Elements.OfType<ExpressionElementSyntax>().Select(x => x.Expression)),
                _ => default,
            };
            return elements.Select(x => FactSyntax.ConstantString(model, x)).OfType<string>().Select(v => v.ToUpperInvariant()).ToList();
        }
        return [];
    }

    private static object? DeclaredValue(INamedTypeSymbol type, string name, Compilation compilation)
    {
        foreach (var property in Members(type, name))
        {
            var value = PropertyValue(property);
            if (value is null || ModelFor(compilation, value.SyntaxTree) is not { } model) continue;
            return FactSyntax.ConstantString(model, value);
        }
        return null;
    }

    /// <summary>A model for a tree of this compilation or of a project it references (Sonarr declares its routing
    /// attributes in Sonarr.Http and uses them in Sonarr.Api.V3): null when neither holds it.</summary>
    private static SemanticModel? ModelFor(Compilation compilation, SyntaxTree tree) =>
        Models.GetValue(compilation, _ => new()).GetOrAdd(tree, t =>
        {
            if (compilation.ContainsSyntaxTree(t)) return compilation.GetSemanticModel(t);
            foreach (var reference in compilation.References.OfType<CompilationReference>())
            {
                if (reference.Compilation.ContainsSyntaxTree(t)) return reference.Compilation.GetSemanticModel(t);
            }
            return null;
        });

    // Per compilation (released with it): the models of the attributes' trees, and each applied attribute's reading,
    // so a controller's hundred actions read `[RestGetById]` once.
    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<Compilation,
        System.Collections.Concurrent.ConcurrentDictionary<SyntaxTree, SemanticModel?>> Models = new();
    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<Compilation,
        System.Collections.Concurrent.ConcurrentDictionary<string, Routing?>> Readings = new();

    private static IEnumerable<PropertyDeclarationSyntax> Members(INamedTypeSymbol type, string name)
    {
        for (var t = type; t is not null && t.SpecialType != SpecialType.System_Object; t = t.BaseType)
        {
            if (!t.Locations.Any(l => l.IsInSource)) yield break;
            foreach (var member in t.GetMembers(name).OfType<IPropertySymbol>())
            foreach (var reference in member.DeclaringSyntaxReferences)
            {
                if (reference.GetSyntax() is PropertyDeclarationSyntax syntax) yield return syntax;
            }
        }
    }

    private static ExpressionSyntax? PropertyValue(PropertyDeclarationSyntax property) =>
        property.ExpressionBody?.Expression
        ?? property.Initializer?.Value
        ?? property.AccessorList?.Accessors.FirstOrDefault(a => a.IsKind(SyntaxKind.GetAccessorDeclaration))?.ExpressionBody?.Expression;
}
