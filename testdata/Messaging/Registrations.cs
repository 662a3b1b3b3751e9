using MassTransit;
using Messaging.Consumers;
using Messaging.Contracts;

namespace Messaging;

// Sample-Twitch's SampleStartup.ConfigureMassTransit: MassTransit's registrations on a configurator handed in, each a
// DI registration (they were none: only calls on `services` were read).
public static class MoreRegistrations
{
    public static void Configure(IBusRegistrationConfigurator x)
    {
        x.AddConsumer<FulfillOrderConsumer>();
        x.AddRequestClient<CheckOrder>();
    }

    // A routing slip builder's AddActivity names an activity and its queue: no registration.
    public static void Plan(RoutingSlipBuilder builder) =>
        builder.AddActivity("AcceptOrder", new Uri("queue:accept-order_execute"));
}
