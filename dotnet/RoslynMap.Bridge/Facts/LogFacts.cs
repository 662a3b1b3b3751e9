using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>Log message templates: ILogger.LogX("template", ...), logger.Log(LogLevel.X, ...),
/// [LoggerMessage] methods and `LoggerMessage.Define(LogLevel.X, id, "template")`, Serilog's
/// `log.Information("template", ...)` / `Log.Write(LogEventLevel.X, ...)`, and NLog's, log4net's, Common.Logging's
/// and LibLog's `logger.Info(...)`, `Warn`, `Trace`, `InfoFormat`, `WarnException`...</summary>
internal sealed class LogFacts
{
    // LogLevel's values, for a level given as a constant rather than as `LogLevel.X`.
    private static readonly string[] Levels = ["Trace", "Debug", "Information", "Warning", "Error", "Critical", "None"];

    private readonly FactSink _sink;

    public LogFacts(FactSink sink)
    {
        _sink = sink;
    }

    // Serilog's ILogger and static Log: the method is the level (Write takes a LogEventLevel first).
    private static readonly HashSet<string> SerilogNames = ["Verbose", "Debug", "Information", "Warning", "Error", "Fatal", "Write"];

    // NLog's Logger, log4net's and Common.Logging's ILog, and LibLog's ILog extensions (Hangfire: 92 of its 112 log
    // calls are `Info`, `Warn`, `Trace`, `WarnException`...): the method is the level, less a `Format` (log4net,
    // Common.Logging) or `Exception` (LibLog, NLog 4) suffix; NLog's ConditionalDebug/ConditionalTrace too.
    private static readonly string[] ClassicLevels = ["Trace", "Debug", "Info", "Warn", "Error", "Fatal"];

    private static readonly HashSet<string> ClassicNames =
    [
        .. ClassicLevels, .. ClassicLevels.Select(l => l + "Format"), .. ClassicLevels.Select(l => l + "Exception"),
        "ConditionalDebug", "ConditionalTrace",
    ];

    public static readonly string[] InvocationNames =
        ["Log", "LogTrace", "LogDebug", "LogInformation", "LogWarning", "LogError", "LogCritical", "Define", .. SerilogNames, .. ClassicNames];

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (name == "Define") Define(inv, from);
        else if (SerilogNames.Contains(name) || ClassicNames.Contains(name)) LevelMethod(inv, name, from);
        else Extensions(inv, name, from);
    }

    private void Extensions(InvocationExpressionSyntax inv, string name, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Logging);
        if (binding == Binding.Other && ClassicLibrary(symbol) is { } library)
        {
            // NLog's `logger.Log(LogLevel.Info, "template", ...)`.
            if (name != "Log") return;
            var (text, read) = TemplateAfterLevel(inv, null, LevelOf);
            if (text is not null)
                _sink.Add(FactKinds.Log, from, FactSyntax.Name(inv)!.SpanStart, Confidence.High, text,
                    new FactDetail().Add("level", read is null ? null : LevelOfName(read)).Add("source", library));
            return;
        }
        if (binding == Binding.Other)
        {
            Adapter(inv, name, symbol as IMethodSymbol, from);
            return;
        }
        if (binding == Binding.Unbound && !FactSyntax.NameContains(FactSyntax.Receiver(inv), "log")) return;

        var (template, level) = TemplateAfterLevel(inv, name == "Log" ? null : name[3..], LevelOf);
        if (template is null) return;
        _sink.Add(FactKinds.Log, from, FactSyntax.Name(inv)!.SpanStart, FrameworkApi.ConfidenceOf(binding)!, template,
            new FactDetail().Add("level", level).Add("source", "ILogger"));
    }

    /// <summary>A method named for its level: Serilog's `log.Information("template", ...)`, `Log.Error(ex, "template")`,
    /// `Log.Write(level, ...)`; NLog's, log4net's, Common.Logging's `logger.Info(...)`, `WarnFormat`...; or the
    /// solution's own (LibLog's `LogExtensions.Info(this ILog logger, string message)`, an adapter). Unbound, the
    /// receiver must read as a logger (`_logger`, `Log`, `GetCurrentClassLogger()`).</summary>
    private void LevelMethod(InvocationExpressionSyntax inv, string name, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Serilog);
        var serilogName = SerilogNames.Contains(name);
        if (binding == Binding.Other)
        {
            if (ClassicLibrary(symbol) is { } library)
            {
                if (ClassicNames.Contains(name)) Classic(inv, name, library, Confidence.High, from);
                return;
            }
            if (symbol is not IMethodSymbol method) return;
            // `Error(string message)`, `Info`, `Trace` are common names: the solution's own only on a logging type
            // (IAppLogger, LibLog's ILog), or of one named so (case counts: `Catalog.Error` is none); `Trace(...)` on
            // any other object is no log.
            var onLogger = IsLoggerType(LoggerTypeOf(inv, method));
            if (!method.Locations.Any(l => l.IsInSource))
            {
                // A package's own LibLog (Hangfire.Core's `Hangfire.Logging.ILog`, used by an app of Hangfire's).
                if (onLogger && name != "Write") Classic(inv, name, "logger", Confidence.Medium, from, method);
                return;
            }
            if ((serilogName && method.ContainingType?.Name.Contains("Log", StringComparison.Ordinal) == true) || onLogger)
                Adapter(inv, name, method, from);
            return;
        }
        if (binding == Binding.Unbound && serilogName && FactSyntax.NameContains(FactSyntax.Receiver(inv), "log"))
            Serilog(inv, name, binding, from);
        else if (binding == Binding.Unbound && !serilogName && NamedLikeLogger(FactSyntax.LastName(FactSyntax.Receiver(inv))))
            Classic(inv, name, "logger", Confidence.Medium, from);
        else if (binding == Binding.Framework && serilogName) Serilog(inv, name, binding, from);
    }

    private static readonly HashSet<string> MessageParameters = new(StringComparer.OrdinalIgnoreCase)
    {
        "message", "msg", "format", "template", "messageTemplate",
    };

    private void Serilog(InvocationExpressionSyntax inv, string name, Binding binding, string? from)
    {
        var (template, level) = TemplateAfterLevel(inv, name == "Write" ? null : name, EventLevelOf);
        if (template is null) return;
        _sink.Add(FactKinds.Log, from, FactSyntax.Name(inv)!.SpanStart, FrameworkApi.ConfidenceOf(binding)!, template,
            new FactDetail().Add("level", level).Add("source", "Serilog"));
    }

    /// <summary>NLog, log4net, Common.Logging (`source` the library; `logger` when the call did not bind): the template
    /// is the first string argument, after an exception or a format provider.</summary>
    private void Classic(InvocationExpressionSyntax inv, string name, string source, string confidence, string? from,
                         IMethodSymbol? method = null)
    {
        // A package's method names its message parameter: Android's `Log.Info(string tag, string msg)` logs `msg`, not
        // the tag (review finding: "MyTag" was the template).
        var message = method?.Parameters.FirstOrDefault(p => p.Type.SpecialType == SpecialType.System_String
                                                              && MessageParameters.Contains(p.Name));
        var (template, _) = message is null
            ? TemplateAfterLevel(inv, name, LevelOf)
            : (FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, message.Ordinal, message.Name)?.Expression, interpolated: true), (string?)null);
        if (template is null) return;
        _sink.Add(FactKinds.Log, from, FactSyntax.Name(inv)!.SpanStart, confidence, template,
            new FactDetail().Add("level", LevelOfName(name)).Add("source", source));
    }

    private static string? ClassicLibrary(ISymbol? symbol) =>
        symbol is null ? null
        : FrameworkApi.IsFrom(symbol, FrameworkApi.NLog) ? "NLog"
        : FrameworkApi.IsFrom(symbol, FrameworkApi.Log4Net) ? "log4net"
        : FrameworkApi.IsFrom(symbol, FrameworkApi.CommonLogging) ? "Common.Logging"
        : null;

    /// <summary>The level a method's name says, in ILogger's words where they differ (`Info`, `InfoFormat`:
    /// Information; `WarnException`: Warning); Serilog's Verbose and Fatal are kept.</summary>
    internal static string LevelOfName(string name)
    {
        if (name.StartsWith("Log", StringComparison.Ordinal) && name.Length > 3) name = name[3..];
        if (name.StartsWith("Conditional", StringComparison.Ordinal)) name = name["Conditional".Length..];
        foreach (var suffix in (string[])["Format", "Exception"])
        {
            if (name.EndsWith(suffix, StringComparison.Ordinal) && name.Length > suffix.Length) name = name[..^suffix.Length];
        }
        return name switch { "Info" => "Information", "Warn" => "Warning", _ => name };
    }

    /// <summary>What a call logs to: the receiver's type, the extended type of an extension called as a static
    /// method, else the method's own type (a static call, or one on `this`).</summary>
    private ITypeSymbol? LoggerTypeOf(InvocationExpressionSyntax inv, IMethodSymbol method)
    {
        if (method is { IsExtensionMethod: true, ReducedFrom: null, Parameters.Length: > 0 }) return method.Parameters[0].Type;
        var receiver = FactSyntax.Receiver(inv);
        return (receiver is null ? null : _sink.Model.GetTypeInfo(receiver).Type) ?? method.ContainingType;
    }

    /// <summary>A type named as a logger (`ILog`, `Logger`, `IAppLogger`, `AuditLog`: ordinal, so `Catalog` and `Blog`
    /// are not), or one of a logging library, or implementing or deriving from such a type.</summary>
    private static bool IsLoggerType(ITypeSymbol? type)
    {
        if (type is null or { TypeKind: TypeKind.Error }) return false;
        for (var t = type; t is not null; t = t.BaseType)
        {
            if (LoggerNamed(t)) return true;
        }
        return type.AllInterfaces.Any(LoggerNamed);
    }

    private static bool LoggerNamed(ITypeSymbol t) =>
        t.Name.EndsWith("Log", StringComparison.Ordinal) || t.Name.EndsWith("Logger", StringComparison.Ordinal)
        || ClassicLibrary(t) is not null || FrameworkApi.IsFrom(t, FrameworkApi.Serilog) || FrameworkApi.IsFrom(t, FrameworkApi.Logging);

    /// <summary>A receiver's name that reads as a logger: `log`, `logger`, `_logger`, `s_log`, `Log`, `ClassLogger`,
    /// `GetCurrentClassLogger()`; not `catalog` or `blog`.</summary>
    internal static bool NamedLikeLogger(string? name)
    {
        if (name is null) return false;
        var bare = name.TrimStart('_');
        if (bare.Length > 2 && bare[1] == '_' && bare[0] is 's' or 'm') bare = bare[2..];
        return bare.Equals("log", StringComparison.OrdinalIgnoreCase) || bare.Equals("logger", StringComparison.OrdinalIgnoreCase)
            || bare.EndsWith("Log", StringComparison.Ordinal) || bare.EndsWith("Logger", StringComparison.Ordinal);
    }

    /// <summary>`LoggerMessage.Define&lt;T&gt;(LogLevel.X, new EventId(...), "template")`: a delegate logging that
    /// template wherever it is invoked; the fact is where it is defined.</summary>
    private void Define(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Logging);
        if (binding == Binding.Other || (binding == Binding.Unbound && FactSyntax.LastName(FactSyntax.Receiver(inv)) != "LoggerMessage"))
            return;
        var (template, level) = TemplateAfterLevel(inv, null, LevelOf);
        if (template is null) return;
        _sink.Add(FactKinds.Log, from, FactSyntax.Name(inv)!.SpanStart, FrameworkApi.ConfidenceOf(binding)!, template,
            new FactDetail().Add("level", level).Add("source", "LoggerMessage.Define"));
    }

    /// <summary>A logging adapter of the solution (eShopOnWeb's `IAppLogger&lt;T&gt;.LogWarning(string message,
    /// params object[] args)`): a Log* method declared in source with a string parameter named like a
    /// template (message, template, format). Its argument there is the template; source "adapter",
    /// confidence medium (the parameter is recognised by its name).</summary>
    private void Adapter(InvocationExpressionSyntax inv, string name, IMethodSymbol? method, string? from)
    {
        if (method is null || !method.Locations.Any(l => l.IsInSource)) return;
        var parameter = method.Parameters.FirstOrDefault(p => p.Type.SpecialType == SpecialType.System_String
            && (p.Name.Contains("message", StringComparison.OrdinalIgnoreCase) || p.Name.Contains("template", StringComparison.OrdinalIgnoreCase)
                || p.Name.Contains("format", StringComparison.OrdinalIgnoreCase)));
        if (parameter is null) return;
        var ordinal = method.Parameters.IndexOf(parameter);
        var arg = FactSyntax.Arg(inv.ArgumentList, ordinal, parameter.Name);
        var template = FactSyntax.ConstantString(_sink.Model, arg?.Expression, interpolated: true);
        if (template is null) return;
        var level = name is "Log" or "Write" ? null : LevelOfName(name);
        _sink.Add(FactKinds.Log, from, FactSyntax.Name(inv)!.SpanStart, Confidence.Medium, template,
            new FactDetail().Add("level", level).Add("source", "adapter").Add("via", _sink.IdOf(method.OriginalDefinition)));
    }

    /// <summary>`[LoggerMessage(Level = ..., Message = "...")]` or positional `(eventId, level, message)`.</summary>
    public void LoggerMessage(AttributeSyntax attr, string? id)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, attr, FrameworkApi.Logging);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        string? message = FactSyntax.ConstantString(_sink.Model, FactSyntax.NamedArg(attr, "Message")?.Expression);
        string? level = FactSyntax.NamedArg(attr, "Level") is { } named ? LevelOf(named.Expression) : null;
        for (var i = 0; FactSyntax.PositionalArg(attr, i) is { } arg; i++)
        {
            level ??= LevelOf(arg.Expression);
            message ??= FactSyntax.ConstantString(_sink.Model, arg.Expression);
        }
        if (message is null) return;
        _sink.Add(FactKinds.Log, id, attr.SpanStart, confidence, message,
            new FactDetail().Add("level", level).Add("source", "LoggerMessage"));
    }

    /// <summary>The template is the first string argument, after an optional event id or exception, and after the
    /// level `levelOf` reads when the method's name does not say it (`level` null).</summary>
    private (string? Template, string? Level) TemplateAfterLevel(InvocationExpressionSyntax inv, string? level,
        Func<ExpressionSyntax, string?> levelOf)
    {
        foreach (var arg in inv.ArgumentList.Arguments)
        {
            if (level is null && levelOf(arg.Expression) is { } read) { level = read; continue; }
            if (!IsString(arg.Expression)) continue;
            return (FactSyntax.ConstantString(_sink.Model, arg.Expression, interpolated: true), level);
        }
        return (null, level);
    }

    /// <summary>Serilog's `LogEventLevel.Debug`.</summary>
    private static string? EventLevelOf(ExpressionSyntax e) =>
        FactSyntax.Unwrap(e) is MemberAccessExpressionSyntax { Expression: var left, Name: var member }
        && FactSyntax.LastName(left) == "LogEventLevel" ? member.Identifier.ValueText : null;

    // A string literal, not any literal: SimplCommerce's `_logger.LogInformation(1, "User logged in.")` passes its
    // event id as a number, which was taken for the template (and, not a string, lost the call's template).
    private bool IsString(ExpressionSyntax e) =>
        FactSyntax.Unwrap(e) is LiteralExpressionSyntax literal ? literal.IsKind(SyntaxKind.StringLiteralExpression)
            || literal.IsKind(SyntaxKind.Utf8StringLiteralExpression)
        : FactSyntax.Unwrap(e) is InterpolatedStringExpressionSyntax
          || _sink.Model.GetTypeInfo(e).Type?.SpecialType == SpecialType.System_String;

    private string? LevelOf(ExpressionSyntax e)
    {
        e = FactSyntax.Unwrap(e);
        if (e is MemberAccessExpressionSyntax { Expression: var left, Name: var member } && FactSyntax.LastName(left) == "LogLevel")
            return member.Identifier.ValueText;
        if (_sink.Model.GetTypeInfo(e).Type is { Name: "LogLevel" } && _sink.Model.GetConstantValue(e) is { HasValue: true, Value: int n }
            && n >= 0 && n < Levels.Length)
            return Levels[n];
        return null;
    }
}
