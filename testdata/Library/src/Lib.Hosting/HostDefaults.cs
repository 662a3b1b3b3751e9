namespace Lib.Hosting;

public static class HostDefaults
{
    public static string Route() => "/feed";

    /// <summary>Public, in a library no package ships and the app references: unused.</summary>
    public static string Banner() => "Lib";
}
