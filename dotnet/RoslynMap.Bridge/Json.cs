using System.Buffers;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace RoslynMap.Bridge;

/// <summary>Builds one JSON string with Utf8JsonWriter. Escaping is relaxed: the output goes to
/// orjson, never into HTML, so `&lt;` and `+` in signatures stay as they are.</summary>
internal static class Json
{
    private static readonly JsonWriterOptions Options = new()
    {
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        Indented = false,
        SkipValidation = true,
    };

    public static string Write(Action<Utf8JsonWriter> body, int capacity = 64 * 1024)
    {
        var buffer = new ArrayBufferWriter<byte>(capacity);
        using (var writer = new Utf8JsonWriter(buffer, Options))
        {
            body(writer);
        }
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    public static void StringArray(this Utf8JsonWriter w, string name, IEnumerable<string> values)
    {
        w.WriteStartArray(name);
        foreach (var v in values) w.WriteStringValue(v);
        w.WriteEndArray();
    }

    public static void NullableString(this Utf8JsonWriter w, string? value)
    {
        if (value is null) w.WriteNullValue();
        else w.WriteStringValue(value);
    }
}
