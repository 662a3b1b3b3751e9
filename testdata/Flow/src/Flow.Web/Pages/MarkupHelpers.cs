using Microsoft.AspNetCore.Html;
using Microsoft.AspNetCore.Mvc.Rendering;

namespace Flow.Web.Pages;

// Called only from .cshtml (`@Html.Money(...)`): the class must not be "unused", or the views break when it goes.
public static class MarkupHelpers
{
    public static IHtmlContent Money(this IHtmlHelper html, decimal amount) => new HtmlString($"{amount:0.00} EUR");
}
