using Shop.Domain;
using Shop.Infrastructure;
using Shop.Services;

var repository = new InMemoryOrderRepository();
using var service = new OrderService(repository);
var savedEvents = 0;
repository.Saved += (sender, e) => savedEvents++;

var pricing = new PricingService();
pricing.AddRule(order => order.IsLarge() ? -10m : 0m);

var first = service.Place(OrderFactory.Create("Ada", 1200m), CancellationToken.None);
var second = service.Place(OrderFactory.Create("Grace", 80m), CancellationToken.None);
var discounted = second.WithDiscount(new PercentageDiscount(10m));
service.Pay(first.Id);

Discount[] discounts = [new PercentageDiscount(5m), new FixedDiscount(25m)];
var best = PricingService.Best<Discount>(discounts, d => first.Total - d.Apply(first.Total));

var sql = new SqlOrderRepository();
sql.Save(first);
sql.Save(second, overwrite: false);

var customer = new Customer("Ada");
customer.AddAddress(new Customer.Address("1 Main St", "London"));
customer[0] = new Customer.Address("2 High St", "Cambridge");
customer.OrderCount++;

var money = first.ToMoney() + new Money(5m, ShopConstants.DefaultCurrency);
var average = service.Statistics.TryGetAverage(out var mean) ? mean : 0m;

Console.WriteLine($"Orders: {repository.Count}, saved events: {savedEvents}, average: {average}");
Console.WriteLine($"Large: {first.IsLarge()}, price: {pricing.Price(first, best)}, best: {best.Describe()}");
Console.WriteLine($"Discounted: {discounted.Total}, money: {money}, amount: {(decimal)money}");
Console.WriteLine($"SQL writes: {sql.Writes}, {Describe(customer)}");

static string Describe(Customer c) => $"{c.Name} at {c[0]}";
