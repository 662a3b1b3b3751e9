using System.Text.Json;

namespace RoslynMap.Bridge;

/// <summary>Serializes the documents of one NextBatch() call as positional arrays, UTF-8 JSON bytes.</summary>
internal static class BatchWriter
{
    public static byte[] Write(IReadOnlyList<DocumentResult> documents) => Write(new System.Buffers.ArrayBufferWriter<byte>(64 * 1024), documents);

    /// <summary>Into `buffer`, reused from one batch to the next (Json.WriteUtf8).</summary>
    public static byte[] Write(System.Buffers.ArrayBufferWriter<byte> buffer, IReadOnlyList<DocumentResult> documents) => Json.WriteUtf8(buffer, w =>
    {
        w.WriteStartObject();

        w.WriteStartArray("files");
        foreach (var d in documents)
        {
            if (d.File is not { } f) continue;
            w.WriteStartArray();
            w.WriteStringValue(f.Path);
            w.WriteNumberValue(f.ProjectIndex);
            w.WriteNumberValue(f.LineCount);
            w.WriteEndArray();
        }
        w.WriteEndArray();

        w.WriteStartArray("symbols");
        foreach (var d in documents)
        foreach (var s in d.Symbols)
        {
            w.WriteStartArray();
            w.WriteStringValue(s.SymbolId);
            w.WriteStringValue(s.StableId);
            w.WriteNumberValue(s.ProjectIndex);
            w.WriteStringValue(s.Name);
            w.WriteStringValue(s.Kind);
            w.WriteStringValue(s.Fqn);
            w.WriteStringValue(s.Signature);
            w.WriteStringValue(s.DocSummary);
            w.WriteStringValue(s.Namespace);
            w.NullableString(s.ContainerSymbolId);
            w.WriteStringValue(s.File);
            w.WriteNumberValue(s.Line);
            w.WriteNumberValue(s.Col);
            w.WriteNumberValue(s.EndLine);
            w.WriteNumberValue(s.EndCol);
            w.WriteStringValue(s.Visibility);
            w.WriteBooleanValue(s.IsStatic);
            w.WriteNumberValue(s.Arity);
            w.WriteEndArray();
        }
        w.WriteEndArray();

        w.WriteStartArray("locations");
        foreach (var d in documents)
        foreach (var l in d.Locations)
        {
            w.WriteStartArray();
            w.WriteStringValue(l.SymbolId);
            w.WriteNumberValue(l.ProjectIndex);
            w.WriteStringValue(l.File);
            w.WriteNumberValue(l.Line);
            w.WriteNumberValue(l.Col);
            w.WriteNumberValue(l.EndLine);
            w.WriteEndArray();
        }
        w.WriteEndArray();

        // A batch's references name a few thousand distinct ids, files and kinds hundreds of thousands of
        // times: each string is written once, in "strings", and a reference gives its index (0: null).
        // On Newtonsoft.Json that is 18 MB of JSON instead of 47, and Python makes each string once.
        var strings = new StringTable();
        w.WriteStartArray("refs");
        foreach (var d in documents)
        foreach (var r in d.Refs)
        {
            w.WriteStartArray();
            w.WriteNumberValue(strings.Index(r.TargetSymbolId));
            w.WriteNumberValue(strings.Index(r.TargetName));
            w.WriteNumberValue(strings.Index(r.TargetKind));
            w.WriteNumberValue(strings.Index(r.FromSymbolId));
            w.WriteNumberValue(r.ProjectIndex);
            w.WriteNumberValue(strings.Index(r.File));
            w.WriteNumberValue(r.Line);
            w.WriteNumberValue(r.Col);
            w.WriteNumberValue(r.EndCol);
            w.WriteNumberValue(strings.Index(r.Kind));
            w.WriteNumberValue(strings.Index(r.Receiver));
            if (r.Candidates is null) w.WriteNullValue();
            else
            {
                w.WriteStartArray();
                foreach (var c in r.Candidates) w.WriteStringValue(c);
                w.WriteEndArray();
            }
            w.WriteEndArray();
        }
        w.WriteEndArray();
        w.WriteStartArray("strings");
        foreach (var s in strings.Values) w.NullableString(s);
        w.WriteEndArray();

        w.WriteStartArray("relations");
        foreach (var d in documents)
        foreach (var r in d.Relations)
        {
            w.WriteStartArray();
            w.WriteStringValue(r.TypeSymbolId);
            w.NullableString(r.RelatedSymbolId);
            w.WriteStringValue(r.RelatedName);
            w.WriteStringValue(r.Kind);
            w.WriteNumberValue(r.ProjectIndex);
            w.WriteEndArray();
        }
        w.WriteEndArray();

        w.WriteStartArray("diagnostics");
        foreach (var d in documents)
        foreach (var x in d.Diagnostics)
        {
            w.WriteStartArray();
            w.WriteNumberValue(x.ProjectIndex);
            w.WriteStringValue(x.File);
            w.WriteNumberValue(x.Line);
            w.WriteNumberValue(x.Col);
            w.WriteStringValue(x.Severity);
            w.WriteStringValue(x.Code);
            w.WriteStringValue(x.Message);
            w.WriteEndArray();
        }
        w.WriteEndArray();

        w.WriteStartArray("facts");
        foreach (var d in documents)
        foreach (var f in d.Facts)
        {
            w.WriteStartArray();
            w.WriteStringValue(f.Kind);
            w.NullableString(f.SymbolId);
            w.WriteNumberValue(f.ProjectIndex);
            w.WriteStringValue(f.File);
            w.WriteNumberValue(f.Line);
            w.WriteNumberValue(f.Col);
            w.WriteStringValue(f.Confidence);
            w.WriteStringValue(f.Key);
            w.WriteStringValue(f.Detail);
            w.WriteEndArray();
        }
        w.WriteEndArray();

        w.WriteStartArray("externals");
        foreach (var d in documents)
        foreach (var x in d.Externals)
        {
            w.WriteStartArray();
            w.WriteStringValue(x.SymbolId);
            w.WriteStringValue(x.Name);
            w.WriteStringValue(x.Kind);
            w.WriteStringValue(x.Fqn);
            w.NullableString(x.ContainerSymbolId);
            w.WriteStringValue(x.Assembly);
            w.WriteStringValue(x.Signature);
            w.WriteStringValue(x.Namespace);
            w.WriteEndArray();
        }
        w.WriteEndArray();

        w.WriteEndObject();
    });
}

/// <summary>Each distinct string of a batch once, in first-use order; index 0 stands for null.</summary>
internal sealed class StringTable
{
    private readonly Dictionary<string, int> _indexes = new(StringComparer.Ordinal);

    public List<string?> Values { get; } = [null];

    public int Index(string? value)
    {
        if (value is null) return 0;
        if (!_indexes.TryGetValue(value, out var index))
        {
            index = Values.Count;
            _indexes.Add(value, index);
            Values.Add(value);
        }
        return index;
    }
}
