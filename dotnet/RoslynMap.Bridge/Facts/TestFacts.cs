using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Test methods and the HTTP calls tests make, for "which tests reach this symbol" (tests_find).
/// A `Test` fact marks a method carrying an xUnit, NUnit or MSTest test attribute (key: the
/// framework). An `HttpCall` fact is an HttpClient call (GetAsync, PostAsJsonAsync...) with a path
/// known at compile time (key: the path, interpolation holes as `{expr}`): functional tests reach an
/// endpoint through it, not through a call the reference graph sees.
/// </summary>
internal sealed class TestFacts
{
    // Attribute name (without "Attribute") -> framework, and each framework's namespace.
    private static readonly Dictionary<string, string> Attributes = new(StringComparer.Ordinal)
    {
        ["Fact"] = "xunit", ["Theory"] = "xunit",
        ["Test"] = "nunit", ["TestCase"] = "nunit", ["TestCaseSource"] = "nunit",
        ["TestMethod"] = "mstest", ["DataTestMethod"] = "mstest",
    };

    /// <summary>Cheap syntax test for the dispatcher: the frameworks' own names, and names a derived attribute
    /// usually has (`[SkippableFact]`, `[WpfTheory]`, Dapper's `[FactMySql]`, `[FactLongRunning]`, a `[RetryTest]`,
    /// a `[MyTestMethod]`, FsCheck's `[Property]`); Method binds it to be sure.</summary>
    public static bool IsTestAttribute(string name) =>
        Attributes.ContainsKey(name) || name == "Property"
        || name.EndsWith("Fact", StringComparison.Ordinal) || name.EndsWith("Theory", StringComparison.Ordinal)
        || name.StartsWith("Fact", StringComparison.Ordinal) || name.StartsWith("Theory", StringComparison.Ordinal)
        || name.EndsWith("Test", StringComparison.Ordinal) || name.EndsWith("TestMethod", StringComparison.Ordinal);

    private static readonly Dictionary<string, string> Namespaces = new(StringComparer.Ordinal)
    {
        ["Xunit"] = "xunit", ["NUnit.Framework"] = "nunit", ["Microsoft.VisualStudio.TestTools.UnitTesting"] = "mstest",
    };

    public static readonly Dictionary<string, string> HttpVerbs = new(StringComparer.Ordinal)
    {
        ["GetAsync"] = "GET", ["GetStringAsync"] = "GET", ["GetStreamAsync"] = "GET", ["GetByteArrayAsync"] = "GET",
        ["GetFromJsonAsync"] = "GET", ["PostAsync"] = "POST", ["PostAsJsonAsync"] = "POST", ["PutAsync"] = "PUT",
        ["PutAsJsonAsync"] = "PUT", ["PatchAsync"] = "PATCH", ["PatchAsJsonAsync"] = "PATCH",
        ["DeleteAsync"] = "DELETE", ["DeleteFromJsonAsync"] = "DELETE",
    };

    private static readonly string[] HttpAssemblies = ["System.Net.Http"];

    private readonly FactSink _sink;

    public TestFacts(FactSink sink)
    {
        _sink = sink;
    }

    /// <summary>A method's test attribute, if any: `high` when it binds to the framework's attribute (or one
    /// deriving from it, [SkippableFact]), `medium` when it binds to nothing, none when it is another type.</summary>
    public void Method(MethodDeclarationSyntax method, AttributeSyntax attr, string name, string? id)
    {
        var symbol = AttributeType(method, attr);
        string? framework = null;
        var confidence = Confidence.High;
        for (var type = symbol; type is not null && framework is null; type = type.BaseType)
        {
            var known = type.Name.EndsWith("Attribute", StringComparison.Ordinal) ? type.Name[..^"Attribute".Length] : type.Name;
            if (Attributes.ContainsKey(known) && Namespaces.TryGetValue(type.ContainingNamespace?.ToDisplayString() ?? "", out var f))
                framework = f;
        }
        if (framework is null)
        {
            if (symbol is not null || !Attributes.TryGetValue(name, out framework)) return;
            confidence = Confidence.Medium;
        }
        _sink.Add(FactKinds.Test, id, method.Identifier.SpanStart, confidence, framework,
            new FactDetail().Add("attribute", name));
    }

    /// <summary>The type of the attribute's constructor (null when it binds to none), read from the method's
    /// attributes: the compiler bound those with the declaration (GetDiagnostics completes every symbol of the
    /// document), so nothing is bound again, where asking the model about the attribute syntax binds it anew.
    /// An attribute the method symbol does not carry (`[return: ...]`) is asked of the model.</summary>
    private INamedTypeSymbol? AttributeType(MethodDeclarationSyntax method, AttributeSyntax attr)
    {
        if (_sink.Model.GetDeclaredSymbol(method) is { } declared)
        {
            foreach (var data in declared.GetAttributes())
            {
                if (data.ApplicationSyntaxReference is { } at && at.Span == attr.Span && at.SyntaxTree == attr.SyntaxTree)
                    return data.AttributeConstructor?.ContainingType;
            }
        }
        return _sink.Model.GetSymbolInfo(attr).Symbol?.ContainingType;
    }

    /// <summary>Alba's scenario calls (JasperFx's test host, the Critter Stack's: EventSourcing.NetCore's
    /// Helpdesk.Wolverine tests every endpoint so): `x.Post.Json(body).ToUrl("/api/x")`, `x.Get.Url("/api/x")`.</summary>
    public static readonly string[] AlbaUrlMethods = ["Url", "ToUrl"];

    private static readonly string[] AlbaAssemblies = ["Alba"];

    private static readonly Dictionary<string, string> AlbaVerbs = new(StringComparer.Ordinal)
    {
        ["Get"] = "GET", ["Post"] = "POST", ["Put"] = "PUT", ["Patch"] = "PATCH", ["Delete"] = "DELETE", ["Head"] = "HEAD",
    };

    public void HttpCall(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (inv.ArgumentList.Arguments.Count == 0) return;
        if (Array.IndexOf(AlbaUrlMethods, name) >= 0)
        {
            AlbaCall(inv, name, from);
            return;
        }
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, HttpAssemblies);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        var path = FactSyntax.ConstantString(_sink.Model, inv.ArgumentList.Arguments[0].Expression, interpolated: true);
        if (string.IsNullOrEmpty(path)) return;
        _sink.Add(FactKinds.HttpCall, from, FactSyntax.Name(inv)!.SpanStart, confidence, path,
            new FactDetail().Add("method", HttpVerbs[name]).Add("call", name));
    }

    /// <summary>An Alba `Url`/`ToUrl` call: the verb is the scenario's property the chain starts from (`x.Post`),
    /// read through the calls between (`.Json(body)`); no such property, no call (another library's `Url`).
    /// Unbound (Alba not restored), the chain's shape alone counts, at medium confidence.</summary>
    private void AlbaCall(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (inv.ArgumentList.Arguments.Count != 1 || inv.Expression is not MemberAccessExpressionSyntax access) return;
        string? verb = null;
        for (var receiver = access.Expression; verb is null;)
        {
            if (receiver is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax call }) receiver = call.Expression;
            else if (receiver is MemberAccessExpressionSyntax property && AlbaVerbs.TryGetValue(property.Name.Identifier.ValueText, out var v)) verb = v;
            else return;
        }
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, AlbaAssemblies);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        var path = FactSyntax.ConstantString(_sink.Model, inv.ArgumentList.Arguments[0].Expression, interpolated: true);
        if (string.IsNullOrEmpty(path)) return;
        _sink.Add(FactKinds.HttpCall, from, FactSyntax.Name(inv)!.SpanStart, confidence, path,
            new FactDetail().Add("method", verb).Add("call", name));
    }
}
