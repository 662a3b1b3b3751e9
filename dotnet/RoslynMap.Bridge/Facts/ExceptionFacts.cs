using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>Exceptions thrown: `throw new T(...)`, `x ?? throw new T()`, `throw e;` and `throw;`
/// (keyed by the caught type when the catch declares one).</summary>
internal sealed class ExceptionFacts
{
    private readonly FactSink _sink;

    public ExceptionFacts(FactSink sink)
    {
        _sink = sink;
    }

    public void Throw(ThrowStatementSyntax node, string? from)
    {
        if (node.Expression is null) Rethrow(node, from);
        else Thrown(node.Expression, node.ThrowKeyword.SpanStart, "throw", from);
    }

    public void Throw(ThrowExpressionSyntax node, string? from) =>
        Thrown(node.Expression, node.ThrowKeyword.SpanStart, "throw_expression", from);

    private void Thrown(ExpressionSyntax expression, int anchor, string form, string? from)
    {
        var e = FactSyntax.Unwrap(expression);
        var type = _sink.Model.GetTypeInfo(e).Type;
        if (type is { TypeKind: not TypeKind.Error } && _sink.IdOf(type) is { } id)
        {
            _sink.Add(FactKinds.Exception, from, anchor, Confidence.High, id, new FactDetail().Add("form", form));
            return;
        }
        // Unbound: the type as written when it is a creation, else nothing worth naming.
        if (e is not ObjectCreationExpressionSyntax creation) return;
        _sink.Add(FactKinds.Exception, from, anchor, Confidence.Medium, FactSyntax.Collapse(creation.Type.ToString()),
            new FactDetail().Add("form", form));
    }

    private void Rethrow(ThrowStatementSyntax node, string? from)
    {
        CatchClauseSyntax? clause = null;
        for (var n = node.Parent; n is not null and not MemberDeclarationSyntax and not AnonymousFunctionExpressionSyntax; n = n.Parent)
        {
            if (n is CatchClauseSyntax c) { clause = c; break; }
        }
        var key = "rethrow";
        var confidence = Confidence.High;
        if (clause?.Declaration?.Type is { } caught)
        {
            var type = _sink.Model.GetTypeInfo(caught).Type;
            if (type is { TypeKind: not TypeKind.Error } && _sink.IdOf(type) is { } id) key = id;
            else
            {
                key = FactSyntax.Collapse(caught.ToString());
                confidence = Confidence.Medium;
            }
        }
        _sink.Add(FactKinds.Exception, from, node.ThrowKeyword.SpanStart, confidence, key, new FactDetail().Add("form", "rethrow"));
    }
}
