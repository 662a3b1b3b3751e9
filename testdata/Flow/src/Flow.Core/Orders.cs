using System.Diagnostics.CodeAnalysis;
using Ardalis.GuardClauses;

namespace Flow.Core;

public sealed record CreateOrderCommand(string Buyer, int ItemId) : IRequest<int>;

public sealed record OrderPlaced(int OrderId) : INotification;

/// <summary>Sends notices; no implementation is registered (nor written) in the solution.</summary>
public interface INoticeSender
{
    Task SendAsync(string text);
}

public sealed class CreateOrderHandler : IRequestHandler<CreateOrderCommand, int>
{
    private readonly IRepository<Order> _orders;
    private readonly IMediator _mediator;
    private readonly INoticeSender _notices;

    public CreateOrderHandler(IRepository<Order> orders, IMediator mediator, INoticeSender notices)
    {
        _orders = orders;
        _mediator = mediator;
        _notices = notices;
    }

    public async Task<int> Handle(CreateOrderCommand request, CancellationToken cancellationToken)
    {
        Guard.Against.NullOrEmpty(request.Buyer, nameof(request.Buyer));
        if (request.ItemId <= 0) OrderRules.Reject("no item");
        var order = new Order { Buyer = request.Buyer, ItemId = request.ItemId };
        await _orders.AddAsync(order, cancellationToken);
        var placed = new OrderPlaced(order.Id);
        await _mediator.Publish(placed, cancellationToken);
        await _notices.SendAsync("placed");
        return order.Id;
    }
}

public sealed class OrderPlacedAudit : INotificationHandler<OrderPlaced>
{
    public Task Handle(OrderPlaced notification, CancellationToken cancellationToken) => Task.CompletedTask;
}

/// <summary>Throw helpers of the solution: one marked [DoesNotReturn], one whose body only throws.</summary>
public static class OrderRules
{
    [DoesNotReturn]
    public static void Reject(string reason) => Fail(reason);

    private static void Fail(string reason)
    {
        throw new InvalidOperationException(reason);
    }
}
