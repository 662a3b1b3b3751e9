using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Conventions.Web.Pages;

/// <summary>A Blazor host page (MudBlazor's Docs.WasmHost `_Host`, reached by `MapFallbackToPage("/_Host")`): its
/// file starts with `_`, so it is read as no routed page, and nothing names OnGet but the framework, by its name.</summary>
public sealed class HostModel : PageModel
{
    public bool Prerender { get; private set; }

    public void OnGet() => Prerender = Request.Headers.ContainsKey("UsePrerender");
}
