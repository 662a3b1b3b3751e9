namespace RoslynMap.Bridge;

// Row types of one batch; field order is the positional order of the JSON arrays
// (docs/architecture.md, "Bridge batch format").

internal sealed record FileRow(string Path, int ProjectIndex, int LineCount);

internal sealed record SymbolRow(
    string SymbolId, string StableId, int ProjectIndex, string Name, string Kind, string Fqn,
    string Signature, string DocSummary, string Namespace, string? ContainerSymbolId,
    string File, int Line, int Col, int EndLine, int EndCol,
    string Visibility, bool IsStatic, int Arity);

internal sealed record LocationRow(string SymbolId, int ProjectIndex, string File, int Line, int Col, int EndLine);

internal sealed record RefRow(
    string? TargetSymbolId, string TargetName, string? TargetKind, string? FromSymbolId,
    int ProjectIndex, string File, int Line, int Col, int EndCol, string Kind, string? Receiver,
    List<string>? Candidates);   // unresolved only: the ids of Roslyn's rejected candidates

internal sealed record RelationRow(string TypeSymbolId, string? RelatedSymbolId, string RelatedName, string Kind, int ProjectIndex);

/// <summary>A framework or package symbol (from metadata) some reference names: what an agent needs to
/// find it by name and query it by id.</summary>
internal sealed record ExternalRow(
    string SymbolId, string Name, string Kind, string Fqn, string? ContainerSymbolId, string Assembly,
    string Signature, string Namespace);

internal sealed record DiagnosticRow(int ProjectIndex, string File, int Line, int Col, string Severity, string Code, string Message);

/// <summary>An architectural surface (route, config key, table...); Detail is a JSON object string.</summary>
internal sealed record FactRow(
    string Kind, string? SymbolId, int ProjectIndex, string File, int Line, int Col,
    string Confidence, string Key, string Detail);

/// <summary>Everything extracted from one document; documents of a batch are merged in order.</summary>
internal sealed class DocumentResult
{
    public FileRow? File;
    public readonly List<SymbolRow> Symbols = new();
    public readonly List<LocationRow> Locations = new();
    public readonly List<RefRow> Refs = new();
    public readonly List<RelationRow> Relations = new();
    public readonly List<DiagnosticRow> Diagnostics = new();
    public readonly List<FactRow> Facts = new();
    public readonly List<ExternalRow> Externals = new();
    // A share of generated-use facts: each fact's (symbol, generated member), in order (IndexSession keeps the first).
    public List<(string Symbol, string From)>? GeneratedKeys;
}

/// <summary>Reference kinds of the contract.</summary>
internal static class RefKinds
{
    public const string Call = "Call";
    public const string Read = "Read";
    public const string Write = "Write";
    public const string Instantiate = "Instantiate";
    public const string Override = "Override";
    public const string Implementation = "Implementation";
    public const string TypeRef = "TypeRef";
    public const string ImplicitCall = "ImplicitCall";   // a call the compiler makes for foreach, await, using... (ImplicitCalls)
    public const string MockSetup = "MockSetup";         // a member named in a mock's setup expression: not run (ReferenceClassifier)
    public const string AttributeArgument = "AttributeArgument"; // `[Retry(Attempts = 0)]`: set when the attribute is read, not by the member
}
