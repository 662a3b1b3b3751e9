using MediatR;

namespace Web.NoPackages;

// MediatR is not referenced: IRequest<T>, IRequestHandler<,> and IMediator are error types. Contoso's test fixture
// forwards every request with `SendAsync<T>(IRequest<T> request) => mediator.Send(request)`: the forwarder is still
// one (its request keyed `?IRequest`), so the handler's sender is the member making the request.
public sealed record VoidInvoice(int InvoiceId) : IRequest<bool>;

public sealed class VoidInvoiceHandler : IRequestHandler<VoidInvoice, bool>
{
    public Task<bool> Handle(VoidInvoice request, CancellationToken cancellationToken) => Task.FromResult(request.InvoiceId > 0);
}

public sealed class InvoiceSlice(IMediator mediator)
{
    public Task<T> SendAsync<T>(IRequest<T> request) => mediator.Send(request);
}

public static class InvoiceVoiding
{
    public static Task<bool> VoidAsync(InvoiceSlice slice, int invoiceId) => slice.SendAsync(new VoidInvoice(invoiceId));
}
