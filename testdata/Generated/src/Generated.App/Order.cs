using System.Text.Json.Serialization;

namespace Generated.App;

public class Order
{
    public int Id { get; set; }

    // Internal: only the generated serializer reads and writes it.
    [JsonInclude]
    internal string Note { get; set; } = "";
}

[JsonSerializable(typeof(Order))]
internal partial class OrderContext : JsonSerializerContext;
