using System.Security.Cryptography;
using System.Text;
using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>
/// stable_id = "sym_" + 16 hex of SHA-256 over a structural fingerprint. Only structure goes in
/// (kind, container, namespace, name, arity, parameter and return types, static-ness), never
/// positions, so the id survives line moves and reformatting.
/// </summary>
internal static class StableIds
{
    public static string For(ISymbol symbol, string kind)
    {
        var sb = new StringBuilder(128);
        sb.Append(kind).Append('|');
        sb.Append(symbol.ContainingType?.ToDisplayString(SymbolFacts.TypeFormat) ?? "").Append('|');
        sb.Append(SymbolFacts.Namespace(symbol)).Append('|');
        sb.Append(symbol.MetadataName).Append('|');
        sb.Append(SymbolFacts.Arity(symbol)).Append('|');
        AppendParameters(sb, Parameters(symbol));
        sb.Append('|');
        sb.Append(ReturnType(symbol)?.ToDisplayString(SymbolFacts.TypeFormat) ?? "").Append('|');
        sb.Append(symbol.IsStatic ? '1' : '0');
        return Hash(sb.ToString());
    }

    // One SHA-256 context per extraction thread, reset after each hash: the one-shot SHA256.HashData sets up
    // and frees an OpenSSL context per call, which cost more than the hash (7 % of Newtonsoft.Json's walk).
    [ThreadStatic] private static IncrementalHash? _sha256;

    public static string Hash(string fingerprint)
    {
        var sha256 = _sha256 ??= IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        sha256.AppendData(Encoding.UTF8.GetBytes(fingerprint));
        Span<byte> digest = stackalloc byte[32];
        sha256.GetHashAndReset(digest);
        return "sym_" + Convert.ToHexStringLower(digest[..8]);
    }

    private static IEnumerable<IParameterSymbol> Parameters(ISymbol symbol) => symbol switch
    {
        IMethodSymbol m => m.Parameters,
        IPropertySymbol p => p.Parameters,
        INamedTypeSymbol { DelegateInvokeMethod: { } invoke } => invoke.Parameters,
        _ => [],
    };

    private static ITypeSymbol? ReturnType(ISymbol symbol) => symbol switch
    {
        IMethodSymbol m => m.ReturnType,
        IPropertySymbol p => p.Type,
        IFieldSymbol f => f.Type,
        IEventSymbol e => e.Type,
        INamedTypeSymbol { DelegateInvokeMethod: { } invoke } => invoke.ReturnType,
        _ => null,
    };

    private static void AppendParameters(StringBuilder sb, IEnumerable<IParameterSymbol> parameters)
    {
        var first = true;
        foreach (var p in parameters)
        {
            if (!first) sb.Append(',');
            first = false;
            if (p.RefKind != RefKind.None) sb.Append(p.RefKind.ToString().ToLowerInvariant()).Append(' ');
            if (p.IsParams) sb.Append("params ");
            sb.Append(p.Type.ToDisplayString(SymbolFacts.TypeFormat));
        }
    }
}
