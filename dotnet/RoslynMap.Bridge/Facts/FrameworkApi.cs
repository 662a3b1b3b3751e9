using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge.Facts;

/// <summary>How a call site binds: to the framework API, to nothing (the framework assembly is
/// missing), or to something else that merely shares the name (no fact).</summary>
internal enum Binding
{
    Other,
    Framework,
    Unbound,
}

/// <summary>Which assemblies count as "the framework" for each fact kind, and the binding test.</summary>
internal static class FrameworkApi
{
    public static readonly string[] AspNetCore = ["Microsoft.AspNetCore"];
    public static readonly string[] Configuration = ["Microsoft.Extensions.Configuration", "Microsoft.Extensions.Options"];
    public static readonly string[] DependencyInjection = ["Microsoft.Extensions.DependencyInjection"];
    public static readonly string[] Logging = ["Microsoft.Extensions.Logging"];
    public static readonly string[] Serilog = ["Serilog"];
    public static readonly string[] NLog = ["NLog"];
    public static readonly string[] Log4Net = ["log4net"];
    public static readonly string[] CommonLogging = ["Common.Logging"];
    public static readonly string[] EntityFramework = ["Microsoft.EntityFrameworkCore"];
    public static readonly string[] Dapper = ["Dapper"];
    public static readonly string[] FluentMigrator = ["FluentMigrator"];
    public static readonly string[] Resilience = ["Polly", "Microsoft.Extensions.Http.Resilience", "Microsoft.Extensions.Resilience"];

    public static (Binding Binding, ISymbol? Symbol) Classify(SemanticModel model, SyntaxNode node, string[] assemblies)
    {
        var info = model.GetSymbolInfo(node);
        var symbol = Bound.ForFacts(info);
        if (symbol is null) return (Binding.Unbound, null);
        return (IsFrom(symbol, assemblies) ? Binding.Framework : Binding.Other, symbol);
    }

    /// <summary>True when the symbol's assembly is one of the given names or a dotted child of one.</summary>
    public static bool IsFrom(ISymbol symbol, string[] assemblies)
    {
        var name = symbol.ContainingAssembly?.Name;
        if (name is null) return false;
        foreach (var a in assemblies)
        {
            if (name.StartsWith(a, StringComparison.Ordinal) && (name.Length == a.Length || name[a.Length] == '.')) return true;
        }
        return false;
    }

    public static bool IsIn(ISymbol symbol, string ns) =>
        symbol.ContainingNamespace?.ToDisplayString() == ns;

    public static string? ConfidenceOf(Binding binding) => binding switch
    {
        Binding.Framework => Confidence.High,
        Binding.Unbound => Confidence.Medium,
        _ => null,
    };
}
