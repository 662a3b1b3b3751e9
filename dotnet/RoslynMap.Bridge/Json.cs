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

    public static string Write(Action<Utf8JsonWriter> body, int capacity = 64 * 1024) =>
        Encoding.UTF8.GetString(Utf8(body, capacity).WrittenSpan);

    // One buffer and writer per thread for small documents written by the thousand (a fact's detail).
    [ThreadStatic] private static ArrayBufferWriter<byte>? _small;
    [ThreadStatic] private static Utf8JsonWriter? _smallWriter;

    /// <summary>As Write, for a small document written on a hot path: the thread's one buffer and writer, reset
    /// (a fact's detail; `body` must not call WriteSmall itself).</summary>
    public static string WriteSmall(Action<Utf8JsonWriter> body)
    {
        var buffer = _small ??= new ArrayBufferWriter<byte>(256);
        buffer.ResetWrittenCount();
        var writer = _smallWriter ??= new Utf8JsonWriter(buffer, Options);
        writer.Reset(buffer);
        body(writer);
        writer.Flush();
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    /// <summary>The UTF-8 bytes themselves, for large answers: Python reads a byte[] through the buffer
    /// protocol without a copy, where a string is transcoded twice (to UTF-16 here, to a str there).</summary>
    public static byte[] WriteUtf8(Action<Utf8JsonWriter> body, int capacity = 64 * 1024) =>
        Utf8(body, capacity).WrittenSpan.ToArray();

    /// <summary>As WriteUtf8, into `buffer` (emptied first): a caller writing one large answer after another (the
    /// index's batches, a megabyte each) reuses one buffer instead of growing a new one on the large-object heap for
    /// each, which the runtime pays for with full collections.</summary>
    public static byte[] WriteUtf8(ArrayBufferWriter<byte> buffer, Action<Utf8JsonWriter> body)
    {
        buffer.ResetWrittenCount();
        using (var writer = new Utf8JsonWriter(buffer, Options))
        {
            body(writer);
        }
        return buffer.WrittenSpan.ToArray();
    }

    private static ArrayBufferWriter<byte> Utf8(Action<Utf8JsonWriter> body, int capacity)
    {
        var buffer = new ArrayBufferWriter<byte>(capacity);
        using (var writer = new Utf8JsonWriter(buffer, Options))
        {
            body(writer);
        }
        return buffer;
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
