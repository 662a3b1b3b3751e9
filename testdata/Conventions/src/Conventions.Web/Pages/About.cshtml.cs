using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Conventions.Web.Pages;

/// <summary>A page with no handler method (eShopOnWeb's Admin IndexModel): the framework still constructs it.</summary>
public sealed class AboutModel : PageModel
{
    public AboutModel(ILogger<AboutModel> logger)
    {
        Title = logger.IsEnabled(LogLevel.Debug) ? "About (debug)" : "About";
    }

    public string Title { get; }
}
