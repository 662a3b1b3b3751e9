using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis.CSharp;
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
            Settings(method, id);
            return;  // one trigger per function
        }
    }

    private static readonly Regex SettingReference = new("%([^%]+)%", RegexOptions.Compiled);

    /// <summary>The app settings a function's bindings name, as Config facts (pattern `functions_binding`): a
    /// `%name%` in any string of a trigger or binding attribute (`[TimerTrigger("%CleanupSchedule%")]`), and the
    /// `Connection = "Bus"` setting (the runtime also tries `ConnectionStrings:Bus` and `AzureWebJobsBus`: the
    /// detail's `alternatives`). Triggers and input bindings are on parameters, output bindings on parameters or on
    /// the method (`[QueueOutput]`, `[return: Queue("x")]`). An attribute bound elsewhere (`[FromBody]`) is none.</summary>
    private void Settings(MethodDeclarationSyntax method, string id)
    {
        var attributes = method.AttributeLists.SelectMany(l => l.Attributes)
            .Where(a => !IsFunctionAttribute(FactSyntax.AttributeName(a)))
            .Concat(method.ParameterList.Parameters.SelectMany(p => p.AttributeLists).SelectMany(l => l.Attributes));
        foreach (var binding in attributes)
        {
            // Only a resolved attribute counts as bound: an unresolved `[return: Queue("x")]` has System.Collections.
            // Generic.Queue<T> as its candidate (no attribute), and still is the storage extension's binding.
            var symbol = sink.Model.GetSymbolInfo(binding).Symbol;
            if (binding.ArgumentList is null || (symbol is not null && !FrameworkApi.IsFrom(symbol, Assemblies))) continue;
            var confidence = symbol is null ? Confidence.Medium : Confidence.High;
            var name = FactSyntax.AttributeName(binding);
            foreach (var arg in binding.ArgumentList.Arguments)
            {
                if (FactSyntax.ConstantString(sink.Model, arg.Expression) is not { Length: > 0 } value) continue;
                var detail = new FactDetail().Add("pattern", "functions_binding").Add("attribute", name);
                var references = SettingReference.Matches(value).Select(m => m.Groups[1].Value).ToList();
                if (references.Count > 0)
                    foreach (var reference in references)
                        sink.Add(FactKinds.Config, id, arg.Expression.SpanStart, confidence, reference.Replace("__", ":"), detail);
                else if (arg.NameEquals?.Name.Identifier.ValueText == "Connection")
                    sink.Add(FactKinds.Config, id, arg.Expression.SpanStart, confidence, value.Replace("__", ":"),
                        detail.Add("alternatives", ["ConnectionStrings:" + value.Replace("__", ":"), "AzureWebJobs" + value]));
            }
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
