using OAuth2.Models;  // a package that did not restore: UserInfo is an error type

namespace Partial.Web;

public interface IOAuthProviderClient
{
    Task<UserInfo> GetGitHubUserInfoAsync(string code);
    Task<UserInfo> GetGoogleUserInfoAsync(string code, string redirectUri);
    string ProviderName(int attempt);
}

public class LoginService(IOAuthProviderClient client)
{
    public Task<UserInfo> LoginAsync(string code) => client.GetGitHubUserInfoAsync(code);

    public Task<UserInfo> LoginWithGoogleAsync(string code) => client.GetGoogleUserInfoAsync(code, "/back");
}
