namespace Web.NoPackages.Grpc;

// Shaped like Grpc.Tools' output for basket.proto (package BasketApi), written by hand: the
// fixture has no gRPC packages, so MapGrpcService is matched by syntax.
public static partial class Basket
{
    static readonly string __ServiceName = "BasketApi.Basket";

    public abstract partial class BasketBase
    {
        public virtual Task<string> GetBasket(string buyerId) => throw new NotImplementedException();

        public virtual Task<string> UpdateBasket(string buyerId, string items) => throw new NotImplementedException();

        public virtual Task<bool> DeleteBasket(string buyerId) => throw new NotImplementedException();
    }
}

public sealed class BasketService : Basket.BasketBase
{
    public override Task<string> GetBasket(string buyerId) => Task.FromResult(buyerId);

    public override Task<string> UpdateBasket(string buyerId, string items) => Task.FromResult(items);

    public override string ToString() => "basket";
}
