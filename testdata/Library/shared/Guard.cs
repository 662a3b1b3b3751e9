using System;

namespace Shared;

/// <summary>Polly's Guard.cs: one source file compiled into several projects (`&lt;Compile Include="..\..\shared\Guard.cs"
/// Link="Guard.cs" /&gt;`), so each declares `Shared.Guard` and its members under the same ids.</summary>
internal static class Guard
{
    public static T NotNull<T>(T value) where T : class => value ?? throw new ArgumentNullException(nameof(value));

#if NET46
    public static void Legacy() { }
#endif

    public static string NotEmpty(string value) => NotNull(value).Length == 0 ? throw new ArgumentException("empty") : value;

    /// <summary>Dapper's FieldExists (SqlMapper.DapperTable.cs, compiled into Dapper and Dapper.StrongName): unused in
    /// every project compiling it, so asked for either project it is listed.</summary>
    public static bool NeverCalled() => false;  // public, in an internal class: no published API
}
