using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge.Facts;

internal static class FactKinds
{
    public const string Route = "Route";
    public const string Config = "Config";
    /// <summary>A branch of `#if` inactive in the indexed build; key its directive, detail its end line and declarations.</summary>
    public const string InactiveCode = "InactiveCode";
    /// <summary>A method subscribed to a topic by an attribute (`[CapSubscribe("orders.created")]`); key its last
    /// constant string, detail the attribute and every positional constant string (TopicFacts).</summary>
    public const string TopicSubscriber = "TopicSubscriber";
    public const string SagaEvent = "SagaEvent";
    /// <summary>A `Publish*` call with constant string arguments (`PublishAsync("orders.created", o)`); key the first,
    /// detail the method name and every positional constant string (TopicFacts).</summary>
    public const string TopicPublish = "TopicPublish";
    /// <summary>An Azure Function (`[Function("Name")]`, `[FunctionName("Name")]`) and its trigger; key the function's
    /// name, detail the trigger attribute and its constant strings (FunctionsFacts).</summary>
    public const string FunctionTrigger = "FunctionTrigger";
    /// <summary>A configuration key a method reads through its parameters (ConfigFlows): key is the template.</summary>
    public const string ConfigFlow = "ConfigFlow";
    /// <summary>A string parameter a method of the solution hands to a SQL sink (SqlFlows): key `{pN}`.</summary>
    public const string SqlFlow = "SqlFlow";
    /// <summary>A configuration key given a value outside appsettings files: an Aspire AppHost's environment
    /// and connection strings for a project (AspireFacts; appsettings files are read by the Python side).</summary>
    public const string ConfigDefinition = "ConfigDefinition";
    /// <summary>A configuration source the index does not read (`AddXmlFile(configPath)`, `AddEnvironmentVariables()`,
    /// Key Vault...): key the method, detail its path when constant. A key undefined in appsettings may be set there.</summary>
    public const string ConfigSource = "ConfigSource";
    public const string DbTable = "DbTable";
    /// <summary>`HasDefaultSchema("x")` in a DbContext's OnModelCreating; key the schema, symbol the context.</summary>
    public const string DbDefaultSchema = "DbDefaultSchema";
    public const string DiRegistration = "DiRegistration";
    public const string Middleware = "Middleware";
    public const string Exception = "Exception";
    public const string Log = "Log";
    public const string RetryPolicy = "RetryPolicy";
    /// <summary>A route group handed to a method of the solution (receiver or argument): the routes that
    /// method maps on that parameter get the group's prefix (expanded when endpoints are listed).</summary>
    public const string RouteGroupCall = "RouteGroupCall";
    /// <summary>A method of the solution mapping a route from its parameters (a Map{Verb} wrapper); key the verb,
    /// detail the parameter ordinals of the pattern, handler and group (MinimalRouteFacts.Wrapper).</summary>
    public const string RouteWrapper = "RouteWrapper";
    /// <summary>A FastEndpoints group class and the prefix its constructor configures (detail: parent group).</summary>
    public const string FastEndpointsGroup = "FastEndpointsGroup";
    /// <summary>`UseFastEndpoints(c => c.Endpoints.RoutePrefix = "api")`: key the prefix of every endpoint.</summary>
    public const string FastEndpointsRoutePrefix = "FastEndpointsRoutePrefix";
    /// <summary>A FastEndpoints versioning option set in UseFastEndpoints; key the option, detail its value.</summary>
    public const string FastEndpointsVersioning = "FastEndpointsVersioning";
    /// <summary>A Map{Verb} call bound to a method of the solution; key the callee id, detail its constant
    /// arguments, handlers and groups by the callee's parameter ordinal (MinimalRouteFacts.WrapperCall).</summary>
    public const string RouteWrapperCall = "RouteWrapperCall";
    /// <summary>A public action of a controller without attribute routes: conventional route patterns
    /// (MapControllerRoute) apply to it when endpoints are listed. Key `Controller/Action`.</summary>
    public const string ControllerAction = "ControllerAction";
    /// <summary>A parameter transformer rewriting routes; key `token` (RouteTokenTransformerConvention) or
    /// `constraint:NAME` (ConstraintMap), detail what its TransformOutbound does (RouteTransformerFacts).</summary>
    public const string RouteTransformer = "RouteTransformer";
    /// <summary>A test method (xUnit, NUnit, MSTest attribute); key the framework (TestFacts).</summary>
    public const string Test = "Test";
    /// <summary>An HttpClient call with a constant path (functional tests reaching an endpoint); key the path.</summary>
    public const string HttpCall = "HttpCall";
    /// <summary>A request sent through a mediator (Send/Publish/CreateStream). Key: the request type id.</summary>
    public const string MediatorRequest = "MediatorRequest";
    /// <summary>An Aspire project resource handed to a method of the AppHost (`builder.AddOllama(catalogApi, webApp)`):
    /// key the method's id, detail the parameter's name and the project (AspireFacts). The configuration that
    /// method gives its parameter (ConfigDefinition with `aspire_member`/`aspire_parameter`) is that project's.</summary>
    public const string AspireProjectArgument = "AspireProjectArgument";
    /// <summary>A method that never returns normally ([DoesNotReturn], or a body that only throws).</summary>
    public const string AlwaysThrows = "AlwaysThrows";
    /// <summary>A symbol declared in the solution that a source generator's output uses (GeneratedUses): key the
    /// generator, detail its hint name, the generated member (`from`) and the `#line` place it maps to (`mapped`).</summary>
    public const string GeneratedUse = "GeneratedUse";
}

internal static class Confidence
{
    public const string High = "high";     // bound to the framework API
    public const string Medium = "medium"; // the framework assembly is missing: matched by syntax
    public const string Low = "low";       // inferred (a helper's documentation, a naming convention)
}

/// <summary>What every fact extractor of one document shares: the model and the output.</summary>
internal sealed class FactSink
{
    private readonly DocumentContext _ctx;

    public FactSink(DocumentContext ctx)
    {
        _ctx = ctx;
    }

    public SemanticModel Model => _ctx.Model;

    public int LineOf(int offset) => _ctx.Position(offset).Line;

    public void Add(string kind, string? symbolId, int offset, string confidence, string key, FactDetail detail)
    {
        var (line, col) = _ctx.Position(offset);
        _ctx.Result.Facts.Add(new FactRow(kind, symbolId, _ctx.ProjectIndex, _ctx.File, line, col, confidence, key, detail.ToJson()));
    }

    private bool _failed;

    /// <summary>A fact extractor threw on a node: the document keeps its symbols, references and other facts, and
    /// one internal diagnostic (per document) says which node and why (docs/honesty.md).</summary>
    public void Failed(string hook, SyntaxNode node, Exception ex)
    {
        if (_failed) return;
        _failed = true;
        var (line, col) = _ctx.Position(node.SpanStart);
        _ctx.Result.Diagnostics.Add(new DiagnosticRow(_ctx.ProjectIndex, _ctx.File, line, col, "internal", "RM0002",
            $"fact extraction failed ({hook}): {ex.GetType().Name}: {ex.Message}"));
    }

    /// <summary>Facts in source order; facts at the same position keep the order they were found in.</summary>
    public void SortBySource()
    {
        var facts = _ctx.Result.Facts;
        if (facts.Count < 2) return;
        var sorted = facts.OrderBy(f => f.Line).ThenBy(f => f.Col).ToList();
        facts.Clear();
        facts.AddRange(sorted);
    }

    /// <summary>Doc id of a symbol's definition (generic instantiations collapse), null for error types.</summary>
    public string? IdOf(ISymbol? symbol)
    {
        if (symbol is null or ITypeSymbol { TypeKind: TypeKind.Error }) return null;
        return _ctx.IdOf(SymbolFacts.Definition(symbol));
    }

    /// <summary>IdOf, and a framework or package symbol recorded among the externals as a reference's target is (its
    /// card, its short id, its container's): a fact naming Identity's `IdentityUserContext`5.Users`, which no code
    /// names, would otherwise be an id nothing else knows.</summary>
    public string? ExternalIdOf(ISymbol? symbol)
    {
        if (IdOf(symbol) is not { } id) return null;
        var definition = SymbolFacts.Definition(symbol!);
        _ctx.External(definition, id, SymbolFacts.KindOf(definition));
        return id;
    }
}
