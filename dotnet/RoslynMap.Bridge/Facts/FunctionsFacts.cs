using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Azure Functions: a method carrying `[Function("Name")]` (the isolated worker) or `[FunctionName("Name")]` (in-process)
/// runs when its trigger fires; nothing in the solution calls it. Each function is a FunctionTrigger fact (key the
/// function's name, detail the trigger attribute on its parameter and that attribute's constant strings: a queue's
/// name, a timer's schedule). An `[HttpTrigger]` also makes Route facts (source `azure_functions`) at its `Route`, or
/// else the function's name, once per verb it lists (none: any); the host's route prefix (host.json's
/// `extensions.http.routePrefix`, `api` by default) is the query layer's to add, as host.json is no compiled file.
/// trading-app-functions-dotnet: 71 HTTP functions in 7 projects, and roslynmap said "0 endpoints, 7 libraries".
/// </summary>
internal sealed class FunctionsFacts(FactSink sink)
{
    private static readonly string[] Assemblies = ["Microsoft.Azure.WebJobs", "Microsoft.Azure.Functions.Worker"];

    public static bool IsFunctionAttribute(string name) => name is "Function" or "FunctionName";

    public void Function(MethodDeclarationSyntax method, AttributeSyntax attr, string? id)
    {
        if (id is null || FactSyntax.PositionalArg(attr, 0) is not { } nameArg
            || FactSyntax.ConstantString(sink.Model, nameArg.Expression) is not { Length: > 0 } function) return;
        var (binding, _) = FrameworkApi.Classify(sink.Model, attr, Assemblies);
        // `[Function]` is a common name: unbound it must still have a trigger parameter to count (below).
        if (binding == Binding.Other) return;
        var confidence = FrameworkApi.ConfidenceOf(binding)!;
        foreach (var parameter in method.ParameterList.Parameters)
        foreach (var list in parameter.AttributeLists)
        foreach (var trigger in list.Attributes)
        {
            var name = FactSyntax.AttributeName(trigger);
            if (!name.EndsWith("Trigger", StringComparison.Ordinal)) continue;
            var strings = new List<string>();
            for (var i = 0; FactSyntax.PositionalArg(trigger, i) is { } arg; i++)
                if (FactSyntax.ConstantString(sink.Model, arg.Expression) is { } value) strings.Add(value);
            sink.Add(FactKinds.FunctionTrigger, id, attr.SpanStart, confidence, function,
                new FactDetail().Add("trigger", name).Add("strings", strings));
            if (name == "HttpTrigger") Routes(trigger, function, strings, confidence, id);
            return;  // one trigger per function
        }
    }

    /// <summary>`[HttpTrigger(AuthorizationLevel.Anonymous, "get", "post", Route = "orders/{id}")]`: its positional
    /// strings are the verbs.</summary>
    private void Routes(AttributeSyntax trigger, string function, List<string> verbs, string confidence, string id)
    {
        var route = FactSyntax.NamedArg(trigger, "Route") is { } named ? FactSyntax.ConstantString(sink.Model, named.Expression) : null;
        var key = "/" + (string.IsNullOrEmpty(route) ? function : route.TrimStart('/'));
        foreach (var verb in verbs.Count == 0 ? ["ANY"] : verbs.Select(v => v.ToUpperInvariant()).Distinct())
            sink.Add(FactKinds.Route, id, trigger.SpanStart, confidence, key,
                new FactDetail().Add("method", verb).Add("handler", id).Add("source", "azure_functions").Add("function", function));
    }
}
