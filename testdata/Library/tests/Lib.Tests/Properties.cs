namespace FsCheck.Xunit;

/// <summary>Stands for FsCheck.Xunit's attribute, which derives from xUnit's Fact.</summary>
public sealed class PropertyAttribute : global::Xunit.FactAttribute
{
    public int MaxTest { get; set; }
}
