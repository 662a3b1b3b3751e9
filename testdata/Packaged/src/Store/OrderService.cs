using Microsoft.EntityFrameworkCore;

namespace Store;

public class OrderService(StoreContext db)
{
    public async Task<int> Place(Order order)
    {
        db.Orders.Add(order);
        return await db.SaveChangesAsync();
    }

    public Task<int> PlaceMany(IEnumerable<Order> orders, CancellationToken cancellationToken)
    {
        db.AddRange(orders);
        return db.SaveChangesAsync(cancellationToken);
    }

    public int Flush() => db.SaveChanges();

    public Task<int> Count() => db.Orders.CountAsync();
}
