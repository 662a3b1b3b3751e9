using Polly;
using Polly.Retry;

namespace Web.Api.Infrastructure;

/// <summary>Polly v7 policies and a v8 pipeline (the Polly 8 package carries both APIs).</summary>
public sealed class ResiliencePolicies
{
    public IAsyncPolicy Http { get; } = Policy
        .Handle<HttpRequestException>()
        .Or<TimeoutException>()
        .WaitAndRetryAsync(3, attempt => TimeSpan.FromMilliseconds(100 * attempt));

    public ISyncPolicy Quick { get; } = Policy.Handle<IOException>().Retry(2);

    public IAsyncPolicy Breaker { get; } = Policy.Handle<HttpRequestException>().CircuitBreakerAsync(5, TimeSpan.FromSeconds(30));

    public ResiliencePipeline Pipeline { get; } = new ResiliencePipelineBuilder()
        .AddRetry(new RetryStrategyOptions
        {
            MaxRetryAttempts = 4,
            ShouldHandle = new PredicateBuilder().Handle<TimeoutException>(),
        })
        .AddTimeout(TimeSpan.FromSeconds(10))
        .Build();
}
