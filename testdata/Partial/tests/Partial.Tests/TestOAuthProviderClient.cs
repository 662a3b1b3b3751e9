using OAuth2.Models;  // the same missing package as the interface's project
using Partial.Web;

namespace Partial.Tests;

// Implements an interface of another project; its signatures name a type of a package that did not restore.
public sealed class TestOAuthProviderClient : IOAuthProviderClient
{
    public Task<UserInfo> GetGitHubUserInfoAsync(string code) => Task.FromResult<UserInfo>(null!);

    public Task<UserInfo> GetGoogleUserInfoAsync(string code, string redirectUri) => Task.FromResult<UserInfo>(null!);

    public Task<UserInfo> GetGoogleUserInfoAsync(string code) => Task.FromResult<UserInfo>(null!);

    public string ProviderName(int attempt) => "test";

    public Task<UserInfo> GetFacebookUserInfoAsync(string code) => Task.FromResult<UserInfo>(null!);
}
