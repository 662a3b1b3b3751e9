using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>A configuration key a method reads through its parameters: `template` holds `{pN}` for the value
/// of its Nth parameter (`ConnectionStrings:{p1}`, `{p1}:Type`) and `{sN}` for the section its Nth parameter is
/// (`GetRequiredValue(this IConfiguration configuration, string name)` reads `{s0}{p1}`: `Identity:Audience` when
/// called on `GetSection("Identity")` with "Audience").</summary>
internal sealed record ConfigFlow(string Template, string Pattern);

/// <summary>
/// Keys a helper reads from the names it is handed (eShopSupport's `AddChatCompletionService(this builder,
/// string serviceName)` reads `{serviceName}:Type` and, through `AddOpenAIChatClient(serviceName)`,
/// `ConnectionStrings:{serviceName}`). Each method of the solution with a string parameter is analysed once
/// (cached per symbol), from its own syntax and its own compilation's model, through the helpers it calls
/// (three levels); a call with constant arguments then reads the keys those constants make (ConfigFacts.
/// ThroughHelper). The flows are also facts of the method's own document (ConfigFlow), so a derived baseline
/// re-extracts the callers when they change (store/derive.py shape).
/// </summary>
internal static class ConfigFlows
{
    private const int MaxDepth = 3;
    private static readonly ConditionalWeakTable<IMethodSymbol, IReadOnlyList<ConfigFlow>> Cache = new();

    private static readonly ConditionalWeakTable<Compilation, System.Collections.Concurrent.ConcurrentDictionary<ISymbol, IReadOnlyList<ConfigFlow>>> InterfaceCache = new();

    [ThreadStatic] private static HashSet<IMethodSymbol>? _inProgress;

    public static bool IsInterfaceMember(IMethodSymbol method) => method is { IsAbstract: true, ContainingType.TypeKind: TypeKind.Interface };

    /// <summary>The method a call or declaration stands for, as flows are keyed: the unreduced original definition.</summary>
    public static IMethodSymbol Definition(IMethodSymbol method) => (method.ReducedFrom ?? method).OriginalDefinition;

    /// <summary>`context`: the compilation the method is seen from (a call's); a method of a referenced project may
    /// come retargeted (its assembly is then not the source assembly): its compilation is found among the
    /// context's references.</summary>
    /// <summary>The compilation whose semantic model binds `tree`, a method's declaring tree: the method's own
    /// project's, else a project `context` references (a helper of another project of the solution).</summary>
    public static Compilation? CompilationHolding(IMethodSymbol method, SyntaxTree tree, Compilation? context) =>
        method.ContainingAssembly is ISourceAssemblySymbol source && source.Compilation.ContainsSyntaxTree(tree)
            ? source.Compilation
            : context?.References.OfType<CompilationReference>().Select(r => r.Compilation).FirstOrDefault(c => c.ContainsSyntaxTree(tree));

    public static IReadOnlyList<ConfigFlow> Of(IMethodSymbol method, Compilation? context, int depth = 0)
    {
        method = Definition(method);
        if (Cache.TryGetValue(method, out var known)) return known;
        if (IsInterfaceMember(method))
        {
            // Which implementations a caller can run depends on the projects its compilation sees: cached per asking
            // compilation, and only when asked from a call (deeper, a cut-off search would be cached as complete).
            if (context is null || depth > 0) return ThroughImplementations(method, context, depth);
            return InterfaceCache.GetValue(context, _ => new(SymbolEqualityComparer.Default))
                .GetOrAdd(method, m => ThroughImplementations((IMethodSymbol)m, context, depth));
        }
        if (depth > MaxDepth || !method.Parameters.Any(p => p.Type.SpecialType == SpecialType.System_String)
            || method.DeclaringSyntaxReferences.Length != 1) return [];
        var syntax = method.DeclaringSyntaxReferences[0].GetSyntax();
        // Binding a body costs: only a method that names configuration (`configuration`, `Configuration`,
        // `GetConnectionString`) is analysed. A helper that only hands a name on to one that does is not followed.
        if (!NamesConfiguration(syntax)) return Cache.GetValue(method, _ => []);
        var tree = syntax.SyntaxTree;
        var compilation = CompilationHolding(method, tree, context);
        if (compilation is null) return [];
        _inProgress ??= new HashSet<IMethodSymbol>(SymbolEqualityComparer.Default);
        if (!_inProgress.Add(method)) return []; // recursion: nothing more to learn
        try
        {
            var model = compilation.GetSemanticModel(tree);
            // The method as its own compilation declares it: its parameters are what the body's names bind to.
            var own = model.GetDeclaredSymbol(syntax) as IMethodSymbol ?? method;
            var flows = Analyse(own, syntax, model, depth);
            return Cache.GetValue(method, _ => flows);
        }
        finally
        {
            _inProgress.Remove(method);
        }
    }

    /// <summary>An interface method's flows: those of its implementations in the solution (trading-app-functions-dotnet
    /// reads every key through `IEnvironmentVariableService.GetVariable(key)`, implemented once with
    /// `Environment.GetEnvironmentVariable(key)`), the first few found in `context` and the projects it references.</summary>
    private static IReadOnlyList<ConfigFlow> ThroughImplementations(IMethodSymbol method, Compilation? context, int depth)
    {
        if (context is null || depth > MaxDepth || !method.Parameters.Any(p => p.Type.SpecialType == SpecialType.System_String)) return [];
        var flows = new List<ConfigFlow>();
        var compilations = context.References.OfType<CompilationReference>().Select(r => r.Compilation).Prepend(context);
        var implementations = compilations
            .SelectMany(c => c.GetSymbolsWithName(method.Name, SymbolFilter.Member).OfType<IMethodSymbol>())
            .Where(m => m.ContainingType.TypeKind is TypeKind.Class or TypeKind.Struct
                && SymbolEqualityComparer.Default.Equals(m.ContainingType.FindImplementationForInterfaceMember(method), m))
            .Distinct(SymbolEqualityComparer.Default).Cast<IMethodSymbol>().Take(3);
        foreach (var implementation in implementations)
        foreach (var flow in Of(implementation, context, depth + 1))
            if (!flows.Contains(flow)) flows.Add(flow);
        return flows;
    }

    private static IReadOnlyList<ConfigFlow> Analyse(IMethodSymbol method, SyntaxNode syntax, SemanticModel model, int depth)
    {
        var flows = new List<ConfigFlow>();
        void Add(string? template, string pattern)
        {
            if (template is not null && !template.Contains('\0') && template.Contains("{p", StringComparison.Ordinal) && !template.Contains('*')
                && !flows.Any(f => f.Template == template && f.Pattern == pattern)) flows.Add(new ConfigFlow(template, pattern));
        }
        foreach (var node in syntax.DescendantNodes())
        {
            switch (node)
            {
                case ElementAccessExpressionSyntax { ArgumentList.Arguments.Count: 1 } access when NamesConfig(access.Expression)
                    && FrameworkApi.Classify(model, access, FrameworkApi.Configuration).Binding != Binding.Other:
                    Add(Prefixed(Section(model, method, access.Expression),
                        Template(model, method, access.ArgumentList.Arguments[0].Expression, 0)), "indexer");
                    break;
                case InvocationExpressionSyntax inv when FactSyntax.NameText(inv) is { } name:
                    // `Environment.GetEnvironmentVariable(key)`: the key the environment variables provider makes of it.
                    if (name == "GetEnvironmentVariable" && FactSyntax.Receiver(inv)?.ToString() is "Environment" or "System.Environment"
                        && FactSyntax.Arg(inv.ArgumentList, 0, "variable")?.Expression is { } variable)
                    {
                        Add(Template(model, method, variable, 0)?.Replace("__", ":"), "environment_variable");
                        break;
                    }
                    if (name is "GetConnectionString" or "GetValue" or "GetSection" or "GetRequiredSection"
                        && NamesConfig(FactSyntax.Receiver(inv)) && FactSyntax.Arg(inv.ArgumentList, 0)?.Expression is { } key
                        && FrameworkApi.Classify(model, inv, FrameworkApi.Configuration).Binding != Binding.Other)
                    {
                        Add(Prefixed(Section(model, method, FactSyntax.Receiver(inv)) + (name == "GetConnectionString" ? "ConnectionStrings:" : ""),
                            Template(model, method, key, 0)), name);
                        break;
                    }
                    // A helper handed one of this method's names: its flows, with its parameters replaced by ours.
                    if (model.GetSymbolInfo(inv).Symbol is IMethodSymbol called && !SymbolEqualityComparer.Default.Equals(Definition(called), method))
                    {
                        foreach (var inner in Of(called, model.Compilation, depth + 1))
                        {
                            var arguments = ArgumentsByParameter(inv, called);
                            Add(Substitute(inner.Template, arguments.ToDictionary(a => a.Key, a => Template(model, method, a.Value, 0)),
                                arguments.ToDictionary(a => a.Key, a => SectionOf(model, method, a.Value))), inner.Pattern);
                        }
                    }
                    break;
            }
        }
        return flows;
    }

    private static bool NamesConfiguration(SyntaxNode syntax) =>
        syntax.DescendantTokens().Any(t => t.IsKind(SyntaxKind.IdentifierToken)
            && (t.ValueText.Contains("onfig", StringComparison.Ordinal) || t.ValueText is "GetConnectionString" or "GetEnvironmentVariable"));

    /// <summary>A receiver named like configuration (a parameter, local, field or `builder.Configuration`: Section says
    /// which section it is); the read must also bind to the configuration API or to nothing (its package missing),
    /// never to a dictionary named `config`.</summary>
    private static bool NamesConfig(ExpressionSyntax? receiver) =>
        receiver is not null && FactSyntax.Unwrap(receiver) is IdentifierNameSyntax or MemberAccessExpressionSyntax
        && FactSyntax.NameContains(receiver, "config");

    /// <summary>What an expression of `method` evaluates to, `{pN}` for its Nth parameter, `*` where unknown.</summary>
    private static string? Template(SemanticModel model, IMethodSymbol method, ExpressionSyntax e, int depth)
    {
        e = FactSyntax.Unwrap(e);
        if (depth > 4) return null;
        switch (e)
        {
            case LiteralExpressionSyntax lit when lit.IsKind(SyntaxKind.StringLiteralExpression):
                return lit.Token.ValueText;
            case InterpolatedStringExpressionSyntax istr:
                return string.Concat(istr.Contents.Select(c => c switch
                {
                    InterpolatedStringTextSyntax text => text.TextToken.ValueText,
                    InterpolationSyntax hole => Template(model, method, hole.Expression, depth + 1) ?? "*",
                    _ => "*",
                }));
            case BinaryExpressionSyntax bin when bin.IsKind(SyntaxKind.AddExpression):
                var (left, right) = (Template(model, method, bin.Left, depth + 1), Template(model, method, bin.Right, depth + 1));
                return left is null || right is null ? null : left + right;
        }
        if (model.GetConstantValue(e) is { HasValue: true, Value: string constant }) return constant;
        if (e is not IdentifierNameSyntax) return null;
        return model.GetSymbolInfo(e).Symbol switch
        {
            IParameterSymbol p when IsOwn(p, method) => "{p" + p.Ordinal + "}",
            ILocalSymbol local when FactSyntax.LocalInitializer(local) is { } init => Template(model, method, init, depth + 1),
            _ => null,
        };
    }

    /// <summary>The argument `inv` gives each parameter of `called` (by name, else by position), its receiver for a
    /// reduced extension method's parameter 0.</summary>
    public static Dictionary<int, ExpressionSyntax> ArgumentsByParameter(InvocationExpressionSyntax inv, IMethodSymbol called)
    {
        var definition = called.ReducedFrom ?? called;
        var offset = called.ReducedFrom is null ? 0 : 1;
        var found = new Dictionary<int, ExpressionSyntax>();
        if (offset == 1 && FactSyntax.Receiver(inv) is { } receiver) found[0] = receiver;
        var arguments = inv.ArgumentList.Arguments;
        for (var i = 0; i < arguments.Count; i++)
        {
            if (FactSyntax.ParameterOf(definition, arguments[i], i, offset) is { } parameter) found[parameter.Ordinal] = arguments[i].Expression;
        }
        return found;
    }

    private static string? Prefixed(string section, string? key) => key is null ? null : section + key;

    // Marks a section no template can say (a read of it is dropped).
    private const string Unknown = "\0";

    /// <summary>The section a configuration receiver of `method` reads from (see SectionOf); a mark that drops the read
    /// when that cannot be said.</summary>
    private static string Section(SemanticModel model, IMethodSymbol method, ExpressionSyntax? receiver) =>
        receiver is null ? "" : SectionOf(model, method, receiver) ?? Unknown;

    /// <summary>The section an expression of `method` stands for: `{sN}` for its own Nth parameter, `X:` for a
    /// `GetSection("X")` (of a parameter: `{sN}X:`), through the initializers of locals, nothing for the root
    /// (`builder.Configuration`, a field); null when it cannot be said.</summary>
    private static string? SectionOf(SemanticModel model, IMethodSymbol method, ExpressionSyntax argument, int depth = 0)
    {
        var e = FactSyntax.Unwrap(argument);
        if (depth > 4) return null;
        if (e is InvocationExpressionSyntax inv && FactSyntax.NameText(inv) is "GetSection" or "GetRequiredSection")
        {
            var part = FactSyntax.Arg(inv.ArgumentList, 0, "key")?.Expression is { } key ? Template(model, method, key, 0) : null;
            var parent = FactSyntax.Receiver(inv) is { } receiver ? SectionOf(model, method, receiver, depth + 1) : null;
            return part is null || parent is null ? null : parent + part + ":";
        }
        if (e is IdentifierNameSyntax id)
        {
            return model.GetSymbolInfo(id).Symbol switch
            {
                IParameterSymbol p => IsOwn(p, method) ? "{s" + p.Ordinal + "}" : IsPrimaryConstructorParameter(p, method) ? "" : null,
                ILocalSymbol local => FactSyntax.LocalInitializer(local) is { } init ? SectionOf(model, method, init, depth + 1) : null,
                _ => "",
            };
        }
        // `builder.Configuration`, `new ConfigurationManager()` (eShopSupport's Evaluator), `builder.Build()`: a root.
        return e is MemberAccessExpressionSyntax or BaseObjectCreationExpressionSyntax or InvocationExpressionSyntax ? "" : null;
    }

    /// <summary>A primary constructor's parameter captured by a member (`class Reader(IConfiguration configuration)`):
    /// held for the object's life like a field, so the configuration injected: the root, as a field is.</summary>
    private static bool IsPrimaryConstructorParameter(IParameterSymbol p, IMethodSymbol method) =>
        p.ContainingSymbol is IMethodSymbol { MethodKind: MethodKind.Constructor } ctor
        && SymbolEqualityComparer.Default.Equals(ctor.ContainingType.OriginalDefinition, method.ContainingType?.OriginalDefinition);

    private static bool IsOwn(IParameterSymbol p, IMethodSymbol method) =>
        SymbolEqualityComparer.Default.Equals(p.ContainingSymbol.OriginalDefinition, method)
        || SymbolEqualityComparer.Default.Equals(p.ContainingSymbol, method);

    /// <summary>`template` with each `{pN}` replaced by `values[N]` and each `{sN}` by `sections[N]` (a section path
    /// ending in `:`, or nothing for the root); null when one is missing.</summary>
    public static string? Substitute(string template, IReadOnlyDictionary<int, string?> values,
        IReadOnlyDictionary<int, string?> sections)
    {
        // One pass over the template: a value may itself hold another method's `{pN}` (a caller's parameter).
        var result = new System.Text.StringBuilder();
        var at = 0;
        for (var start = NextHole(template, 0); start >= 0; start = NextHole(template, at))
        {
            var end = template.IndexOf('}', start);
            var table = template[start + 1] == 'p' ? values : sections;
            if (end < 0 || !int.TryParse(template.AsSpan(start + 2, end - start - 2), out var n)
                || !table.TryGetValue(n, out var value) || value is null) return null;
            result.Append(template, at, start - at).Append(value);
            at = end + 1;
        }
        return result.Append(template, at, template.Length - at).ToString();
    }

    private static int NextHole(string template, int from)
    {
        var p = template.IndexOf("{p", from, StringComparison.Ordinal);
        var s = template.IndexOf("{s", from, StringComparison.Ordinal);
        return p < 0 ? s : s < 0 ? p : Math.Min(p, s);
    }
}
