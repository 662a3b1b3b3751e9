using Foundatio.Messaging;  // not restored

namespace Partial.Web;

public record PlanChanged(int Id);

public class MessageBusBroker(IMessageBus messageBus)
{
    public Task StartAsync() => messageBus.SubscribeAsync<PlanChanged>(OnPlanChangedAsync);

    private Task OnPlanChangedAsync(PlanChanged message) => Task.CompletedTask;
}
