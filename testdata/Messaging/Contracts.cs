namespace Messaging.Contracts;

public record SubmitOrder
{
    public Guid OrderId { get; init; }

    public string CustomerNumber { get; init; } = "";
}

public record OrderSubmissionAccepted
{
    public Guid OrderId { get; init; }
}

public record OrderSubmitted
{
    public Guid OrderId { get; init; }
}

public record OrderAccepted
{
    public Guid OrderId { get; init; }
}

public record CheckOrder
{
    public Guid OrderId { get; init; }
}

public record OrderStatus
{
    public Guid OrderId { get; init; }

    public string State { get; init; } = "";
}

public record FulfillOrder
{
    public Guid OrderId { get; init; }
}

// Published by nobody, consumed by nobody: a publish of it reaches no handler.
public record OrderArchived
{
    public Guid OrderId { get; init; }
}
