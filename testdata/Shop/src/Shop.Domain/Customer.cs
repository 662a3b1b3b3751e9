namespace Shop.Domain;

/// <summary>A customer. The nested <see cref="Address"/> type lives in Customer.Address.cs.</summary>
public partial class Customer
{
    private readonly List<Address> _addresses = new();

    public Customer(string name)
    {
        Name = name;
    }

    /// <summary>The customer's display name.</summary>
    public string Name { get; set; }

    /// <summary>How many orders this customer has placed.</summary>
    public int OrderCount { get; set; }

    /// <summary>Gets or replaces the address at <paramref name="index"/>.</summary>
    public Address this[int index]
    {
        get => _addresses[index];
        set => _addresses[index] = value;
    }
}
