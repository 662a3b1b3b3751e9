using System;

namespace Lib;

/// <summary>The library's API: overloads a caller can make ambiguous, and a member it cannot reach.</summary>
public class Formatter
{
    public static string Format(object value) => value.ToString() ?? "";

    public static string Format(string text, int width) => text.PadLeft(width);

    public static string Describe(string text) => "s:" + text;

    public static string Describe(Uri address) => "u:" + address;

    internal static string Secret() => "hidden";

    public string Name { get; set; } = "";
}
