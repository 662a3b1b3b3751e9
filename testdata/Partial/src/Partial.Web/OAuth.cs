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

// An exporter implementing its interface's Export, and an overload taking a list of a missing type, which implements
// nothing (review finding: compared by its outer type's name, IEnumerable, it took Export's callers and was no longer
// listed unused).
public interface IExporter
{
    void Export(IEnumerable<string> lines);
}

public sealed class CsvExporter : IExporter
{
    public void Export(IEnumerable<string> lines) => Console.WriteLine(lines);

    public void Export(IEnumerable<UserInfo> users) => Console.WriteLine(users);
}

public static class Exports
{
    public static void Run() => new CsvExporter().Export(["a"]);
}
