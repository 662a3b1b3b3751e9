using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>Log message templates: ILogger.LogX("template", ...), logger.Log(LogLevel.X, ...),
/// [LoggerMessage] methods and `LoggerMessage.Define(LogLevel.X, id, "template")`, and Serilog's
/// `log.Information("template", ...)` / `Log.Write(LogEventLevel.X, ...)`.</summary>
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

    public static readonly string[] InvocationNames =
        ["Log", "LogTrace", "LogDebug", "LogInformation", "LogWarning", "LogError", "LogCritical", "Define", .. SerilogNames];

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (name == "Define") Define(inv, from);
        else if (SerilogNames.Contains(name)) Serilog(inv, name, from);
        else Extensions(inv, name, from);
    }

    private void Extensions(InvocationExpressionSyntax inv, string name, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Logging);
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

    /// <summary>Serilog: `log.Information("template", ...)`, `Log.Error(ex, "template")`, `Log.Write(level, ...)`.
    /// Unbound, the receiver must read as a logger (`_logger`, `Log`).</summary>
    private void Serilog(InvocationExpressionSyntax inv, string name, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Serilog);
        if (binding == Binding.Other)
        {
            // `Error(string message)` is a common name: the solution's own only on a logging type (IAppLogger).
            if (symbol?.ContainingType?.Name.Contains("Log", StringComparison.OrdinalIgnoreCase) == true)
                Adapter(inv, name, symbol as IMethodSymbol, from);
            return;
        }
        if (binding == Binding.Unbound && !FactSyntax.NameContains(FactSyntax.Receiver(inv), "log")) return;
        var (template, level) = TemplateAfterLevel(inv, name == "Write" ? null : name, EventLevelOf);
        if (template is null) return;
        _sink.Add(FactKinds.Log, from, FactSyntax.Name(inv)!.SpanStart, FrameworkApi.ConfidenceOf(binding)!, template,
            new FactDetail().Add("level", level).Add("source", "Serilog"));
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
        var level = name is "Log" or "Write" ? null : name.StartsWith("Log", StringComparison.Ordinal) ? name[3..] : name;
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

    private bool IsString(ExpressionSyntax e) =>
        FactSyntax.Unwrap(e) is LiteralExpressionSyntax or InterpolatedStringExpressionSyntax
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
