using Shop.Domain;

namespace Shop.Infrastructure;

/// <summary>Customers, with names normalized on insert.</summary>
public sealed class CustomerRepository : Repository<Customer>
{
    public override void Add(Customer item)
    {
        item.Name = item.Name.Trim();
        base.Add(item);
    }

    public Customer? FindByName(string name) => Find(c => c.Name == name);
}
