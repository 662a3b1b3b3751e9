using FastEndpoints;

namespace FastEp.Api.Admin;

/// <summary>Attribute configuration: the verb attribute on the class is the route (no Configure override),
/// [Group&lt;T&gt;] its group.</summary>
[HttpDelete("customers/{Id:int}"), Group<Administration>]
public sealed class DeleteCustomer : Endpoint<Orders.GetOrderRequest>
{
    public override Task HandleAsync(Orders.GetOrderRequest req, CancellationToken ct) => Task.CompletedTask;
}
