using System.Collections.Immutable;
using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>
/// What a SymbolInfo binds to. Roslyn fills CandidateSymbols when binding failed (ambiguous,
/// inaccessible, no applicable overload, late bound...); taking the first one would record a call to
/// an arbitrary overload. Only one case is a real binding: a member group of exactly one member
/// (`nameof(Method)`), which Roslyn reports as a candidate.
/// </summary>
internal static class Bound
{
    public static (ISymbol? Symbol, ImmutableArray<ISymbol> Candidates) Of(SymbolInfo info)
    {
        if (info.Symbol is not null) return (info.Symbol, ImmutableArray<ISymbol>.Empty);
        if (info.CandidateReason == CandidateReason.MemberGroup && info.CandidateSymbols.Length == 1)
            return (info.CandidateSymbols[0], ImmutableArray<ISymbol>.Empty);
        return (null, info.CandidateSymbols);
    }

    /// <summary>For fact extraction, which asks "is this the framework API X?": the bound symbol, or the
    /// candidates' when they are all overloads of one member of one type (the API is known, only the
    /// overload is not); null otherwise.</summary>
    public static ISymbol? ForFacts(SymbolInfo info)
    {
        if (info.Symbol is not null) return info.Symbol;
        var candidates = info.CandidateSymbols;
        if (candidates.Length == 0) return null;
        var first = candidates[0];
        foreach (var c in candidates)
        {
            if (c.Name != first.Name || !SymbolEqualityComparer.Default.Equals(c.ContainingType?.OriginalDefinition, first.ContainingType?.OriginalDefinition))
                return null;
        }
        return first;
    }
}
