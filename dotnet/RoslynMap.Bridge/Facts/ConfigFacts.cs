using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Configuration keys read through IConfiguration: indexer, GetValue, GetSection (chains and
/// locals holding a section), GetConnectionString, and options binding (Configure&lt;T&gt;, Bind,
/// BindConfiguration). Every access emits its full `a:b:c` key; only constant keys count.
/// </summary>
internal sealed class ConfigFacts
{
    private readonly FactSink _sink;

    public ConfigFacts(FactSink sink)
    {
        _sink = sink;
    }

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        switch (name)
        {
            case "GetSection" or "GetRequiredSection":
                Access(inv, "GetSection", "", type: false, from);
                break;
            case "GetValue":
                Access(inv, "GetValue", "", type: true, from);
                break;
            case "GetConnectionString":
                Access(inv, "GetConnectionString", "ConnectionStrings:", type: false, from);
                break;
            case "Configure":
                Configure(inv, from);
                break;
            case "Bind":
                Bind(inv, from);
                break;
            case "BindConfiguration":
                BindConfiguration(inv, from);
                break;
        }
    }

    public void ElementAccess(ElementAccessExpressionSyntax access, string? from)
    {
        if (access.ArgumentList.Arguments.Count != 1) return;
        var arg = access.ArgumentList.Arguments[0].Expression;
        // Dictionaries and arrays are indexed everywhere: bind only string literals, or constants
        // on a receiver that is named like configuration.
        var literal = arg.IsKind(SyntaxKind.StringLiteralExpression);
        if (!literal && !(arg is IdentifierNameSyntax or MemberAccessExpressionSyntax && LooksLikeConfig(access.Expression))) return;

        var symbol = _sink.Model.GetSymbolInfo(access).Symbol;
        string confidence;
        if (symbol is IPropertySymbol { IsIndexer: true } p && FrameworkApi.IsFrom(p, FrameworkApi.Configuration)) confidence = Confidence.High;
        else if (symbol is null && LooksLikeConfig(access.Expression)) confidence = Confidence.Medium;
        else return;

        var key = FactSyntax.ConstantString(_sink.Model, arg);
        var prefix = SectionPath(access.Expression);
        if (key is null || prefix is null) return;
        _sink.Add(FactKinds.Config, from, access.ArgumentList.OpenBracketToken.SpanStart, confidence, Join(prefix, key),
            new FactDetail().Add("pattern", "indexer"));
    }

    private void Access(InvocationExpressionSyntax inv, string pattern, string keyPrefix, bool type, string? from)
    {
        var key = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0)?.Expression);
        if (key is null) return;
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Configuration);
        var receiver = FactSyntax.Receiver(inv);
        if (binding == Binding.Other || (binding == Binding.Unbound && !LooksLikeConfig(receiver))) return;
        var prefix = SectionPath(receiver);
        if (prefix is null) return;
        var detail = new FactDetail().Add("pattern", pattern);
        if (type) detail.Add("type", TypeArgument(inv, symbol as IMethodSymbol));
        Emit(inv, binding, Join(prefix, keyPrefix + key), detail, from);
    }

    /// <summary>`services.Configure&lt;T&gt;(config.GetSection("s"))` (also with a name first).</summary>
    private void Configure(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Configuration);
        if (binding == Binding.Other) return;
        var section = inv.ArgumentList.Arguments.Select(a => SectionPath(a.Expression)).FirstOrDefault(s => !string.IsNullOrEmpty(s));
        if (section is null) return;
        Emit(inv, binding, section, new FactDetail().Add("pattern", "Configure").Add("type", TypeArgument(inv, symbol as IMethodSymbol)), from);
    }

    /// <summary>`section.Bind(obj)`, `config.Bind("key", obj)`, `optionsBuilder.Bind(section)`.</summary>
    private void Bind(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Configuration);
        if (binding == Binding.Other) return;
        var receiver = FactSyntax.Receiver(inv);
        var args = inv.ArgumentList.Arguments;
        string? key = null;
        string? type = null;
        if (args.Count == 2 && FactSyntax.ConstantString(_sink.Model, args[0].Expression) is { } named)
        {
            key = SectionPath(receiver) is { } p ? Join(p, named) : null;
            type = TypeOf(args[1].Expression);
        }
        else if (args.Count >= 1 && SectionPath(args[0].Expression) is { Length: > 0 } fromArg)
        {
            key = fromArg;
            type = OptionsType(receiver);
        }
        else if (args.Count >= 1 && SectionPath(receiver) is { Length: > 0 } fromReceiver)
        {
            key = fromReceiver;
            type = TypeOf(args[0].Expression);
        }
        if (key is null) return;
        if (binding == Binding.Unbound && !LooksLikeConfig(receiver) && !LooksLikeConfig(args[0].Expression)) return;
        Emit(inv, binding, key, new FactDetail().Add("pattern", "Bind").Add("type", type), from);
    }

    /// <summary>`services.AddOptions&lt;T&gt;().BindConfiguration("s")`.</summary>
    private void BindConfiguration(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Configuration);
        if (binding == Binding.Other) return;
        var key = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "configSectionPath")?.Expression);
        if (key is null) return;
        Emit(inv, binding, key, new FactDetail().Add("pattern", "Bind").Add("type", OptionsType(FactSyntax.Receiver(inv))), from);
    }

    private void Emit(InvocationExpressionSyntax inv, Binding binding, string key, FactDetail detail, string? from)
    {
        var confidence = FrameworkApi.ConfidenceOf(binding)!;
        _sink.Add(FactKinds.Config, from, FactSyntax.Name(inv)!.SpanStart, confidence, key, detail);
    }

    /// <summary>The section path an expression stands for: "" for a root (or unknown) configuration,
    /// `a:b` for `x.GetSection("a").GetSection("b")` or a local holding it; null when a part is not constant.</summary>
    private string? SectionPath(ExpressionSyntax? e, int depth = 0)
    {
        if (e is null) return "";
        e = FactSyntax.Unwrap(e);
        if (e is InvocationExpressionSyntax inv && FactSyntax.NameText(inv) is "GetSection" or "GetRequiredSection")
        {
            var part = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "key")?.Expression);
            if (part is null) return null;
            var parent = SectionPath(FactSyntax.Receiver(inv), depth);
            return parent is null ? null : Join(parent, part);
        }
        if (depth < 4 && e is IdentifierNameSyntax && _sink.Model.GetSymbolInfo(e).Symbol is ILocalSymbol local
            && FactSyntax.LocalInitializer(local) is { } init)
            return SectionPath(init, depth + 1);
        return "";
    }

    private string? TypeArgument(InvocationExpressionSyntax inv, IMethodSymbol? method)
    {
        if (method is { TypeArguments.Length: 1 } && method.TypeArguments[0].TypeKind != TypeKind.Error)
            return FactSyntax.TypeName(method.TypeArguments[0]);
        var args = FactSyntax.TypeArgs(inv);
        return args.Count == 1 ? FactSyntax.TypeName(_sink.Model, args[0]) : null;
    }

    /// <summary>T of an OptionsBuilder&lt;T&gt; receiver, or of `AddOptions&lt;T&gt;()` in its chain.</summary>
    private string? OptionsType(ExpressionSyntax? receiver)
    {
        if (receiver is null) return null;
        if (_sink.Model.GetTypeInfo(receiver).Type is INamedTypeSymbol { Name: "OptionsBuilder", TypeArguments.Length: 1 } builder)
            return FactSyntax.TypeName(builder.TypeArguments[0]);
        foreach (var call in FactSyntax.ChainBelow(receiver))
        {
            if (FactSyntax.NameText(call) == "AddOptions" && FactSyntax.TypeArgs(call) is { Count: 1 } args)
                return FactSyntax.TypeName(_sink.Model, args[0]);
        }
        return null;
    }

    private string? TypeOf(ExpressionSyntax e) =>
        _sink.Model.GetTypeInfo(e).Type is { TypeKind: not TypeKind.Error } t ? FactSyntax.TypeName(t) : null;

    private static string Join(string prefix, string key) => prefix.Length == 0 ? key : prefix + ":" + key;

    private static bool LooksLikeConfig(ExpressionSyntax? e)
    {
        if (e is null) return false;
        if (FactSyntax.Unwrap(e) is InvocationExpressionSyntax inv && FactSyntax.NameText(inv) is "GetSection" or "GetRequiredSection") return true;
        return FactSyntax.NameContains(e, "config") || FactSyntax.NameContains(e, "section");
    }
}
