using Xunit;

namespace Todo.Tests;

public class TodoApiTests
{
    private readonly HttpClient _client = new() { BaseAddress = new Uri("http://localhost:5000") };

    [Fact]
    public async Task ListsTodos() => Assert.True((await _client.GetAsync("/todos")).IsSuccessStatusCode);

    [Fact]
    public async Task GetsATodo() => Assert.True((await _client.GetAsync("/todos/1")).IsSuccessStatusCode);

    [Fact]
    public async Task DeletesATodo() => Assert.True((await _client.DeleteAsync("/todos/1")).IsSuccessStatusCode);

    [Fact]
    public async Task ArchivesATodo() =>
        Assert.True((await _client.PutAsync("/todos/1/archive", null)).IsSuccessStatusCode);
}
