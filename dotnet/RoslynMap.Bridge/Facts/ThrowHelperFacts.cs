using System.Collections.Concurrent;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Calls into package or framework throw helpers, whose bodies are not indexed: `Guard.Against.Null(...)`
/// (Ardalis.GuardClauses and other `Guard` receivers) and `ArgumentNullException.ThrowIfNull(...)`-style
/// `Throw*` methods. Recognised by name only; the exceptions are what the helper's XML documentation
/// names (`&lt;exception cref&gt;`, or a summary that starts "Throws ... &lt;see cref&gt;"), else, for a
/// `ThrowIf*` method of an exception type, that type. Recorded at the call site with confidence low and
/// `inferred` saying from what: nothing here proves the helper throws.
/// </summary>
internal sealed partial class ThrowHelperFacts
{
    // Per helper method id: the exception ids it documents (metadata is the same for every document).
    private static readonly ConcurrentDictionary<string, (string[] Exceptions, string Inferred)> Documented = new();

    private readonly FactSink _sink;

    public ThrowHelperFacts(FactSink sink)
    {
        _sink = sink;
    }

    /// <summary>Cheap syntax test, before any binding.</summary>
    public static bool IsCandidate(InvocationExpressionSyntax inv, string name) =>
        name.StartsWith("Throw", StringComparison.Ordinal) || MentionsGuard(FactSyntax.Receiver(inv));

    /// <summary>Any name of a receiver chain (`Guard.Against`, `_guard`) containing "Guard", without allocating.</summary>
    private static bool MentionsGuard(ExpressionSyntax? e)
    {
        for (var depth = 0; e is not null && depth < 4; depth++)
        {
            switch (e)
            {
                case MemberAccessExpressionSyntax m:
                    if (m.Name.Identifier.ValueText.Contains("Guard", StringComparison.OrdinalIgnoreCase)) return true;
                    e = m.Expression;
                    break;
                case SimpleNameSyntax s:
                    return s.Identifier.ValueText.Contains("Guard", StringComparison.OrdinalIgnoreCase);
                default:
                    return false;
            }
        }
        return false;
    }

    /// <summary>A method of the solution that never returns: `[DoesNotReturn]`, or a body that only throws.
    /// Recorded as an `AlwaysThrows` fact on the method (key: how it is known).</summary>
    public void Declaration(MethodDeclarationSyntax method, string? id)
    {
        if (id is null) return;
        var how = method.AttributeLists.SelectMany(l => l.Attributes).Any(a => FactSyntax.AttributeName(a) == "DoesNotReturn")
            ? "does_not_return"
            : method.ExpressionBody?.Expression is ThrowExpressionSyntax
              || method.Body is { Statements: [ThrowStatementSyntax { Expression: not null }] }
                ? "only_throws" : null;
        if (how is not null)
            _sink.Add(FactKinds.AlwaysThrows, id, method.Identifier.SpanStart, Confidence.High, how, new FactDetail());
    }

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (Bound.ForFacts(_sink.Model.GetSymbolInfo(inv)) is not IMethodSymbol bound) return;
        var method = (bound.ReducedFrom ?? bound).OriginalDefinition;
        if (method.Locations.Any(l => l.IsInSource)) return; // the solution's own helpers are followed as calls
        if (_sink.IdOf(method) is not { } methodId) return;
        var (exceptions, inferred) = Documented.GetOrAdd(methodId, _ => Infer(method, name));
        foreach (var exception in exceptions)
            _sink.Add(FactKinds.Exception, from, FactSyntax.Name(inv)!.SpanStart, Confidence.Low, exception,
                new FactDetail().Add("form", "helper").Add("via", methodId).Add("inferred", inferred));
    }

    private (string[] Exceptions, string Inferred) Infer(IMethodSymbol method, string name)
    {
        var xml = HelperDocs.Of(method, _sink.Model.Compilation);
        var found = new List<string>();
        foreach (Match m in ExceptionCref().Matches(xml)) found.Add(m.Groups[1].Value);
        var summary = Summary().Match(xml);
        if (summary.Success && summary.Groups[1].Value.TrimStart().StartsWith("Throws", StringComparison.Ordinal))
            foreach (Match m in SeeCref().Matches(summary.Groups[1].Value))
                if (m.Groups[1].Value.EndsWith("Exception", StringComparison.Ordinal)) found.Add(m.Groups[1].Value);
        // `System.Exception` stands for a caller-supplied exception when a specific one is documented too.
        var specific = found.Where(e => e != "System.Exception").Distinct().ToList();
        var ids = (specific.Count > 0 ? specific : found.Distinct().ToList()).Select(e => "T:" + e).ToArray();
        if (ids.Length > 0) return (ids, "documented");
        if (name.StartsWith("ThrowIf", StringComparison.Ordinal) && DerivesFromException(method.ContainingType)
            && _sink.IdOf(method.ContainingType) is { } own)
            return ([own], "throw_if_name");
        return ([], "");
    }

    private static bool DerivesFromException(INamedTypeSymbol? type)
    {
        for (var t = type; t is not null; t = t.BaseType)
            if (t.Name == "Exception" && t.ContainingNamespace?.ToDisplayString() == "System") return true;
        return false;
    }

    [GeneratedRegex("<exception cref=\"T:([^\"]+)\"")]
    private static partial Regex ExceptionCref();

    [GeneratedRegex("<summary>(.*?)</summary>", RegexOptions.Singleline)]
    private static partial Regex Summary();

    [GeneratedRegex("<see cref=\"T:([^\"]+)\"")]
    private static partial Regex SeeCref();
}
