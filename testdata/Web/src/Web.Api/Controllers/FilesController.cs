using Microsoft.AspNetCore.Mvc;

namespace Web.Api.Controllers;

public static class FileSettings
{
    public const string Root = "/files";
    public const string Section = "Files";
}

// A route and a configuration key built from constants by interpolation (C# 10 constant interpolated strings):
// the route is `/files/{**path}`, the key `Files:Extensions`.
public sealed class FilesController : Controller
{
    private readonly IConfiguration _configuration;
    private readonly string[] _extensions = [];

    public FilesController(IConfiguration configuration)
    {
        _configuration = configuration;
        var extensions = configuration[$"{FileSettings.Section}:Extensions"];
        if (!string.IsNullOrEmpty(extensions)) _extensions = extensions.Split(',');
    }

    [HttpGet($"{FileSettings.Root}/{{**path}}")]
    public IActionResult Download(string path) =>
        _extensions.Any(path.EndsWith) && _configuration[$"{FileSettings.Section}:Blocked:{path}"] is null
            ? Ok(path)
            : NotFound();
}
