using Microsoft.Extensions.Hosting;

namespace Aspire.Bus;

public interface IBusBuilder
{
    IBusBuilder Subscribe(string topic);
}

public static class BusExtensions
{
    /// <summary>IHostApplicationBuilder is unknown to this project (CS0246): callers that know the type hit a
    /// use-site error, and the compiler binds the call to nothing while still typing it IBusBuilder.</summary>
    public static IBusBuilder AddBus(this IHostApplicationBuilder builder, string connectionName) => null!;
}
