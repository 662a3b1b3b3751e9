namespace Shop.Domain;

public partial class Customer
{
    public int AddressCount => _addresses.Count;

    /// <summary>Adds an address, up to <see cref="ShopConstants.MaxAddresses"/>.</summary>
    public bool AddAddress(Address address)
    {
        if (_addresses.Count >= ShopConstants.MaxAddresses)
        {
            return false;
        }

        _addresses.Add(address);
        return true;
    }

    /// <summary>A postal address.</summary>
    public sealed class Address
    {
        public Address(string street, string city)
        {
            Street = street;
            City = city;
        }

        public string Street { get; }

        public string City { get; }

        public override string ToString() => $"{Street}, {City}";
    }
}
