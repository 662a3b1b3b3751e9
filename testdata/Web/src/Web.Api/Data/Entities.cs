using System.ComponentModel.DataAnnotations.Schema;

namespace Web.Api.Data;

public sealed class Order
{
    public int Id { get; set; }
    public int CustomerId { get; set; }
    public decimal Total { get; set; }
    public DateTime CreatedAt { get; set; }
}

[Table("customers", Schema = "crm")]
public sealed class Customer
{
    public int Id { get; set; }
    public string Name { get; set; } = "";
}

public sealed class AuditEntry
{
    public int Id { get; set; }
    public string Line { get; set; } = "";
}
