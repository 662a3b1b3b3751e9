using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Wolverine HTTP: a method carrying `[WolverineGet("/api/orders/{id}")]` (Post, Put, Delete, Patch, Head, Options)
/// is an endpoint `MapWolverineEndpoints()` finds by that attribute, on any class (static or not, no controller).
/// One Route fact (source `wolverine`) per attribute at its template, the method its handler.
/// oskardudycz/EventSourcing.NetCore's Helpdesk.Wolverine: 16 such endpoints, and roslynmap listed only its SignalR hub.
/// </summary>
internal sealed class WolverineRouteFacts(FactSink sink)
{
    private static readonly string[] Assemblies = ["Wolverine.Http"];

    private static readonly Dictionary<string, string> Verbs = new(StringComparer.Ordinal)
    {
        ["WolverineGet"] = "GET", ["WolverinePost"] = "POST", ["WolverinePut"] = "PUT",
        ["WolverineDelete"] = "DELETE", ["WolverinePatch"] = "PATCH", ["WolverineHead"] = "HEAD",
        ["WolverineOptions"] = "OPTIONS",
    };

    public static bool IsRouteAttribute(string name) => Verbs.ContainsKey(name);

    public void Route(AttributeSyntax attr, string name, string? id)
    {
        if (id is null || FactSyntax.PositionalArg(attr, 0) is not { } templateArg
            || FactSyntax.ConstantString(sink.Model, templateArg.Expression) is not { } template) return;
        var (binding, _) = FrameworkApi.Classify(sink.Model, attr, Assemblies);
        // Bound to another library's attribute of that name: not Wolverine's. Unbound (WolverineFx.Http not
        // restored), the name alone is Wolverine's (medium confidence).
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        sink.Add(FactKinds.Route, id, attr.SpanStart, confidence, RouteTemplates.Normalize(template),
            new FactDetail().Add("method", Verbs[name]).Add("handler", id).Add("source", "wolverine"));
    }
}
