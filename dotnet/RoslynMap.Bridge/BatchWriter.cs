using System.Text.Json;

namespace RoslynMap.Bridge;

/// <summary>Serializes the documents of one NextBatch() call as positional arrays.</summary>
internal static class BatchWriter
{
    public static string Write(IReadOnlyList<DocumentResult> documents) => Json.Write(w =>
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

        w.WriteStartArray("refs");
        foreach (var d in documents)
        foreach (var r in d.Refs)
        {
            w.WriteStartArray();
            w.NullableString(r.TargetSymbolId);
            w.WriteStringValue(r.TargetName);
            w.NullableString(r.TargetKind);
            w.NullableString(r.FromSymbolId);
            w.WriteNumberValue(r.ProjectIndex);
            w.WriteStringValue(r.File);
            w.WriteNumberValue(r.Line);
            w.WriteNumberValue(r.Col);
            w.WriteNumberValue(r.EndCol);
            w.WriteStringValue(r.Kind);
            w.NullableString(r.Receiver);
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
