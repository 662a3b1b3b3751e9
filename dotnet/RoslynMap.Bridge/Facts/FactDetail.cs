namespace RoslynMap.Bridge.Facts;

/// <summary>The detail object of one fact; null values are left out.</summary>
internal sealed class FactDetail
{
    private readonly List<(string Name, object Value)> _fields = new(4);

    public FactDetail Add(string name, string? value)
    {
        if (value is not null) _fields.Add((name, value));
        return this;
    }

    public FactDetail Add(string name, int? value)
    {
        if (value is not null) _fields.Add((name, value.Value));
        return this;
    }

    public FactDetail Add(string name, bool value)
    {
        _fields.Add((name, value));
        return this;
    }

    public FactDetail Add(string name, IReadOnlyList<string>? values)
    {
        if (values is { Count: > 0 }) _fields.Add((name, values));
        return this;
    }

    public string ToJson() => Json.WriteSmall(w =>
    {
        w.WriteStartObject();
        foreach (var (name, value) in _fields)
        {
            switch (value)
            {
                case string s: w.WriteString(name, s); break;
                case int n: w.WriteNumber(name, n); break;
                case bool b: w.WriteBoolean(name, b); break;
                case IReadOnlyList<string> list: w.StringArray(name, list); break;
            }
        }
        w.WriteEndObject();
    });
}
