using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// The request pipeline: `Use*` calls and `Map`/`MapWhen` branches on an IApplicationBuilder
/// (WebApplication included). Facts are held until the document is done so that `order` follows
/// source order within each member even for chained calls (`app.UseA().UseB()` is visited B first).
/// </summary>
internal sealed class MiddlewareFacts
{
    private readonly FactSink _sink;
    private readonly MinimalRouteFacts _routes;
    private readonly List<(string? From, int Offset, string Confidence, string Key, string? Type, string? Condition)> _pending = new();

    public MiddlewareFacts(FactSink sink, MinimalRouteFacts routes)
    {
        _sink = sink;
        _routes = routes;
    }

    /// <summary>`Use` and `UseX...` (a capital after Use: not `User`); Map and MapWhen are dispatched by name.</summary>
    public static bool IsMiddlewareName(string name) =>
        name.StartsWith("Use", StringComparison.Ordinal) && (name.Length == 3 || char.IsUpper(name[3]));

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        var receiver = FactSyntax.Receiver(inv);
        if (receiver is null) return;
        var info = _sink.Model.GetSymbolInfo(inv);
        var method = Bound.ForFacts(info) as IMethodSymbol;

        // WebApplication is both an application and an endpoint builder: Map(pattern, handler)
        // bound to the endpoint overload is a route, Map(path, branch) a pipeline branch.
        if (name == "Map" && method is not null && method.ContainingType?.Name != "MapExtensions")
        {
            if (FrameworkApi.IsFrom(method, FrameworkApi.AspNetCore)) _routes.AnyEndpoint(inv, from);
            return;
        }

        var receiverType = _sink.Model.GetTypeInfo(receiver).Type;
        string confidence;
        if (IsApplicationBuilder(receiverType)) confidence = method is null ? Confidence.Medium : Confidence.High;
        else if (method is null && receiverType is null or { TypeKind: TypeKind.Error } && LooksLikeApp(receiver)) confidence = Confidence.Medium;
        else return;

        string? type = null;
        var key = name;
        if (name == "UseMiddleware")
        {
            type = MiddlewareType(inv, method);
            if (type is not null) key = $"UseMiddleware<{type}>";
        }
        else if (name == "Map")
        {
            var path = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "pathMatch")?.Expression);
            if (path is not null) key = "Map " + path;
        }
        _pending.Add((from, FactSyntax.Name(inv)!.SpanStart, confidence, key, type, Condition(inv)));
    }

    /// <summary>Emits the held facts, numbered 1, 2, 3... in source order within each member.</summary>
    public void Complete()
    {
        foreach (var member in _pending.GroupBy(p => p.From))
        {
            var order = 0;
            foreach (var p in member.OrderBy(p => p.Offset))
            {
                _sink.Add(FactKinds.Middleware, p.From, p.Offset, p.Confidence, p.Key,
                    new FactDetail().Add("order", ++order).Add("type", p.Type).Add("condition", p.Condition));
            }
        }
        _pending.Clear();
    }

    /// <summary>When the call runs only on a branch of its member: `env.IsDevelopment()` in an if's body,
    /// `!(env.IsDevelopment())` in its else, nested ones joined by &&; null when it always runs.</summary>
    private static string? Condition(SyntaxNode call)
    {
        var parts = new List<string>();
        for (var node = call; node.Parent is { } parent && node is not MemberDeclarationSyntax
             && node is not AnonymousFunctionExpressionSyntax && node is not LocalFunctionStatementSyntax; node = parent)
        {
            if (parent is IfStatementSyntax branch && node == branch.Statement)
                parts.Add(FactSyntax.Collapse(branch.Condition.ToString()));
            else if (parent is ElseClauseSyntax { Parent: IfStatementSyntax otherwise })
                parts.Add($"!({FactSyntax.Collapse(otherwise.Condition.ToString())})");
        }
        parts.Reverse();
        return parts.Count == 0 ? null : string.Join(" && ", parts);
    }

    private string? MiddlewareType(InvocationExpressionSyntax inv, IMethodSymbol? method)
    {
        if (method is { TypeArguments.Length: 1 } && method.TypeArguments[0].TypeKind != TypeKind.Error)
            return FactSyntax.TypeName(method.TypeArguments[0]);
        var typeArgs = FactSyntax.TypeArgs(inv);
        if (typeArgs.Count == 1) return FactSyntax.TypeName(_sink.Model, typeArgs[0]);
        if (FactSyntax.Arg(inv.ArgumentList, 0, "middleware")?.Expression is TypeOfExpressionSyntax typeOf)
            return FactSyntax.TypeName(_sink.Model, typeOf.Type);
        return null;
    }

    private static bool IsApplicationBuilder(ITypeSymbol? type)
    {
        if (type is null or { TypeKind: TypeKind.Error }) return false;
        if (IsApplicationBuilderInterface(type)) return true;
        foreach (var i in type.AllInterfaces)
        {
            if (IsApplicationBuilderInterface(i)) return true;
        }
        return false;
    }

    private static bool IsApplicationBuilderInterface(ITypeSymbol type) =>
        type is { Name: "IApplicationBuilder", TypeKind: TypeKind.Interface } && FrameworkApi.IsFrom(type, FrameworkApi.AspNetCore);

    private static bool LooksLikeApp(ExpressionSyntax receiver) =>
        FactSyntax.LastName(receiver) is { } n && (n.Equals("app", StringComparison.OrdinalIgnoreCase) || n.EndsWith("App", StringComparison.Ordinal));
}
