using System.Net.Http;
using System.Threading.Tasks;
using Xunit;

namespace Tested.Tests;

public class ApiTests
{
    private readonly HttpClient _client = new() { BaseAddress = new System.Uri("http://localhost:5000") };

    [Fact]
    public async Task QuoteAnswers()
    {
        var response = await _client.GetAsync("/api/orders/5");
        Assert.True(response.IsSuccessStatusCode);
    }

    [Fact]
    public async Task HealthAnswers()
    {
        Assert.Equal("ok", await _client.GetStringAsync("/api/health"));
    }
}
