using System.Collections.Frozen;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Entry point of fact extraction from the document walk. Every hook filters on syntax kind and
/// name strings first; the semantic model is asked only about the few nodes that pass, which keeps
/// the cost per node to a dictionary lookup. A hook that throws loses its fact, not the document
/// (FactSink.Failed records an internal diagnostic).
/// </summary>
internal sealed class FactDispatcher
{
    private enum Topic
    {
        Route,
        Middleware,
        Config,
        DbTable,
        Di,
        Log,
        Retry,
        Http,
        Mediator,
        Aspire,
        Autofac,
        Scrutor,
    }

    private static readonly FrozenDictionary<string, Topic> InvocationTopics = BuildTopics();

    private readonly MinimalRouteFacts _routes;
    private readonly AttributeRouteFacts _attributeRoutes;
    private readonly MiddlewareFacts _middleware;
    private readonly ConfigFacts _config;
    private readonly DbTableFacts _tables;
    private readonly DiFacts _di;
    private readonly ExceptionFacts _exceptions;
    private readonly LogFacts _logs;
    private readonly RetryFacts _retries;
    private readonly TestFacts _tests;
    private readonly MediatorFacts _mediator;
    private readonly ThrowHelperFacts _throwHelpers;
    private readonly AspireFacts _aspire;
    private readonly FastEndpointsFacts _fastEndpoints;
    private readonly AutofacFacts _autofac;
    private readonly ScrutorFacts _scrutor;
    private readonly RouteTransformerFacts _routeTransformers;
    private readonly TopicFacts _topics;
    private readonly SagaFacts _sagas;
    private readonly FunctionsFacts _functions;
    private readonly WolverineRouteFacts _wolverineRoutes;
    private readonly FactSink _sink;
    private readonly SyntaxTree _tree;

    public FactDispatcher(DocumentContext ctx)
    {
        var sink = _sink = new FactSink(ctx);
        _tree = ctx.Tree;
        _routes = new MinimalRouteFacts(sink);
        _attributeRoutes = new AttributeRouteFacts(sink);
        _middleware = new MiddlewareFacts(sink, _routes);
        _config = new ConfigFacts(sink);
        _tables = new DbTableFacts(sink);
        _di = new DiFacts(sink);
        _exceptions = new ExceptionFacts(sink);
        _logs = new LogFacts(sink);
        _retries = new RetryFacts(sink);
        _tests = new TestFacts(sink);
        _mediator = new MediatorFacts(sink);
        _throwHelpers = new ThrowHelperFacts(sink);
        _aspire = new AspireFacts(sink);
        _fastEndpoints = new FastEndpointsFacts(sink);
        _routeTransformers = new RouteTransformerFacts(sink);
        _autofac = new AutofacFacts(sink);
        _scrutor = new ScrutorFacts(sink);
        _topics = new TopicFacts(sink);
        _sagas = new SagaFacts(sink);
        _functions = new FunctionsFacts(sink);
        _wolverineRoutes = new WolverineRouteFacts(sink);
    }

    private static FrozenDictionary<string, Topic> BuildTopics()
    {
        var topics = new Dictionary<string, Topic>(StringComparer.Ordinal);
        foreach (var n in new[] { "MapGet", "MapPost", "MapPut", "MapDelete", "MapPatch", "MapMethods", "MapGroup",
                     "MapControllerRoute", "MapAreaControllerRoute", "MapDefaultControllerRoute",
                     "MapHealthChecks", "MapHub", "MapForwarder", "MapFallback", "MapFallbackToFile", "MapFallbackToPage",
                     "MapFallbackToController", "MapGrpcService", "MapIdentityApi", "MapDynamicControllerRoute", "MapDynamicPageRoute",
                     "MapOpenApi", "MapScalarApiReference" })
            topics[n] = Topic.Route;
        topics["Map"] = Topic.Middleware;
        topics["MapWhen"] = Topic.Middleware;
        foreach (var n in new[] { "GetSection", "GetRequiredSection", "GetValue", "GetConnectionString", "Configure", "Bind", "BindConfiguration", "Get", "AddInMemoryCollection" })
            topics[n] = Topic.Config;
        foreach (var n in ConfigFacts.SourceMethods) topics.TryAdd(n, Topic.Config);
        topics.TryAdd("IsEnabledAsync", Topic.Config);
        topics.TryAdd("IsEnabled", Topic.Config);
        topics.TryAdd("GetEnvironmentVariable", Topic.Config);
        foreach (var n in DbTableFacts.InvocationNames) topics[n] = Topic.DbTable;
        foreach (var n in DiFacts.InvocationNames) topics[n] = Topic.Di;
        foreach (var n in LogFacts.InvocationNames) topics[n] = Topic.Log;
        foreach (var n in RetryFacts.InvocationNames) topics[n] = Topic.Retry;
        foreach (var n in TestFacts.HttpVerbs.Keys) topics[n] = Topic.Http;
        foreach (var n in TestFacts.AlbaUrlMethods) topics[n] = Topic.Http;
        foreach (var n in MediatorFacts.InvocationNames) topics[n] = Topic.Mediator;
        foreach (var n in AspireFacts.InvocationNames) topics[n] = Topic.Aspire;
        foreach (var n in AutofacFacts.InvocationNames) topics.Add(n, Topic.Autofac);
        topics.Add("Scan", Topic.Scrutor);
        return topics.ToFrozenDictionary(StringComparer.Ordinal);
    }

    public void Invocation(InvocationExpressionSyntax inv, string? from)
    {
        try
        {
            InvocationCore(inv, from);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            _sink.Failed("Invocation", inv, ex);
        }
    }

    private void InvocationCore(InvocationExpressionSyntax inv, string? from)
    {
        if (FactSyntax.NameText(inv) is not { } name) return;
        _config.ThroughHelper(inv, from);
        _tables.ThroughHelper(inv, from);
        _aspire.ClientIntegration(inv, name, from);
        _aspire.ProjectArguments(inv, name, from);
        if (TopicFacts.IsPublishName(name)) _topics.Publish(inv, name, from);
        if (SagaFacts.IsWhen(name)) _sagas.When(inv, from);
        if (!InvocationTopics.TryGetValue(name, out var topic))
        {
            if (MiddlewareFacts.IsMiddlewareName(name)) _middleware.Invocation(inv, name, from);
            else if (DiFacts.IsDescriptorAdd(inv, name)) _di.Descriptor(inv, name, from);
            else if (ConfigFacts.IsSourceAdd(inv, name)) _config.CustomSource(inv, from);
            else if (DiFacts.IsMassTransitRegistration(name)) _di.MassTransitRegistration(inv, name, from);
            else if (DiFacts.IsServiceExtension(inv, name)) _di.Extension(inv, name, from);
            else if (DiFacts.IsClientDbContext(inv, name)) _di.ClientDbContext(inv, name, from);
            else if (ThrowHelperFacts.IsCandidate(inv, name)) _throwHelpers.Invocation(inv, name, from);
            else
            {
                _routes.MapExtensionCall(inv, name, from);
                _routes.GroupCall(inv, from);
            }
            return;
        }
        switch (topic)
        {
            case Topic.Route: _routes.Invocation(inv, name, from); break;
            case Topic.Middleware:
                _middleware.Invocation(inv, name, from);
                _routes.GroupCall(inv, from); // `Products.Map(api.MapGroup("/products"))`: a solution method named Map
                break;
            case Topic.Config:
                _config.Invocation(inv, name, from);
                if (name == "Configure") _di.OptionsConfiguration(inv, from);
                // `services.AddAzureAppConfiguration()` is a configuration source's name and a registration.
                else if (DiFacts.IsServiceExtension(inv, name)) _di.Extension(inv, name, from);
                break;
            case Topic.DbTable: _tables.Invocation(inv, name, from); break;
            case Topic.Di: _di.Invocation(inv, name, from); break;
            case Topic.Log: _logs.Invocation(inv, name, from); break;
            case Topic.Retry: _retries.Invocation(inv, name, from); break;
            case Topic.Http: _tests.HttpCall(inv, name, from); break;
            case Topic.Mediator: _mediator.Invocation(inv, name, from); break;
            case Topic.Aspire: _aspire.Invocation(inv, name, from); break;
            case Topic.Autofac: _autofac.Invocation(inv, name, from); break;
            case Topic.Scrutor: _scrutor.Invocation(inv, from); break;
        }
    }

    public void ElementAccess(ElementAccessExpressionSyntax access, string? from)
    {
        try
        {
            _config.ElementAccess(access, from);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            _sink.Failed("ElementAccess", access, ex);
        }
    }

    public void ObjectCreation(BaseObjectCreationExpressionSyntax creation, string? from)
    {
        try
        {
            ObjectCreationCore(creation, from);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            _sink.Failed("ObjectCreation", creation, ex);
        }
    }

    private void ObjectCreationCore(BaseObjectCreationExpressionSyntax creation, string? from)
    {
        if (creation is not ObjectCreationExpressionSyntax { Type: var type } oc) return;
        var name = type switch
        {
            SimpleNameSyntax s => s.Identifier.ValueText,
            QualifiedNameSyntax q => q.Right.Identifier.ValueText,
            _ => null,
        };
        if (name is null) return;
        if (name == "ResiliencePipelineBuilder") _retries.PipelineBuilder(oc, from);
        else if (name == "RouteTokenTransformerConvention") _routeTransformers.Convention(oc, from);
        else if (name.EndsWith("Command", StringComparison.Ordinal) && oc.ArgumentList is { Arguments.Count: > 0 }) _tables.CommandCreation(oc, from);
    }

    public void Assignment(AssignmentExpressionSyntax assign, string? from)
    {
        try
        {
            AssignmentCore(assign, from);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            _sink.Failed("Assignment", assign, ex);
        }
    }

    private void AssignmentCore(AssignmentExpressionSyntax assign, string? from)
    {
        if (assign.Left is ElementAccessExpressionSyntax)
        {
            _routeTransformers.ConstraintMap(assign, from);
            return;
        }
        var property = assign.Left switch
        {
            MemberAccessExpressionSyntax m => m.Name,
            IdentifierNameSyntax i when assign.Parent is InitializerExpressionSyntax => i,
            _ => null,
        };
        if (property?.Identifier.ValueText == "CommandText") _tables.CommandText(assign, property, from);
        else if (property?.Identifier.ValueText == "RoutePrefix") _fastEndpoints.RoutePrefix(assign, from);
        else if (property is not null && FastEndpointsFacts.IsVersioningOption(property.Identifier.ValueText))
            _fastEndpoints.VersioningOption(assign, property.Identifier.ValueText, from);
    }

    public void Throw(SyntaxNode node, string? from)
    {
        try
        {
            ThrowCore(node, from);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            _sink.Failed("Throw", node, ex);
        }
    }

    private void ThrowCore(SyntaxNode node, string? from)
    {
        if (node is ThrowStatementSyntax statement) _exceptions.Throw(statement, from);
        else if (node is ThrowExpressionSyntax expression) _exceptions.Throw(expression, from);
    }

    /// <summary>Declarations: attributes on methods and types, DbSet properties.</summary>
    public void Declaration(SyntaxNode decl, string? id)
    {
        try
        {
            DeclarationCore(decl, id);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            _sink.Failed("Declaration", decl, ex);
        }
    }

    private void DeclarationCore(SyntaxNode decl, string? id)
    {
        switch (decl)
        {
            case MethodDeclarationSyntax method:
                var routed = false;
                foreach (var list in method.AttributeLists)
                foreach (var attr in list.Attributes)
                {
                    var name = FactSyntax.AttributeName(attr);
                    if (name == "LoggerMessage") _logs.LoggerMessage(attr, id);
                    else if (name == "FeatureGate") _config.FeatureGate(attr, id);
                    else if (TestFacts.IsTestAttribute(name)) _tests.Method(method, attr, name, id);
                    else if (TopicFacts.IsSubscribeAttribute(name)) _topics.Subscriber(attr, name, id);
                    else if (FunctionsFacts.IsFunctionAttribute(name)) _functions.Function(method, attr, id);
                    else if (WolverineRouteFacts.IsRouteAttribute(name)) _wolverineRoutes.Route(attr, name, id);
                    else if (!routed && AttributeRouteFacts.IsRouteAttribute(name))
                    {
                        routed = true;
                        _attributeRoutes.Action(method, id);
                    }
                }
                if (!routed) _attributeRoutes.UnroutedAction(method, id);
                if (FastEndpointsFacts.IsCandidate(method)) _fastEndpoints.Configure(method, id);
                _throwHelpers.Declaration(method, id);
                _config.Flows(method, id);
                _tables.Flows(method, id);
                break;
            case ConstructorDeclarationSyntax ctor when FastEndpointsFacts.IsGroupConstructor(ctor):
                _fastEndpoints.GroupConstructor(ctor);
                break;
            case PropertyDeclarationSyntax property when DbTableFacts.IsDbSetType(property.Type):
                _tables.DbSet(property, id);
                break;
            case TypeDeclarationSyntax type:
                if (type is ClassDeclarationSyntax { BaseList: not null } cls)
                {
                    _tables.InheritedDbSets(cls, id);
                    _attributeRoutes.InheritedActions(cls);
                }
                if (type.AttributeLists.Count == 0) break;
                if (FastEndpointsFacts.IsAttributeEndpoint(type)) _fastEndpoints.AttributeEndpoint((ClassDeclarationSyntax)type);
                foreach (var list in type.AttributeLists)
                foreach (var attr in list.Attributes)
                {
                    var attrName = FactSyntax.AttributeName(attr);
                    if (attrName == "Table") _tables.TableAttribute(attr, id);
                    else if (attrName == "FeatureGate") _config.FeatureGate(attr, id);
                }
                break;
        }
    }

    /// <summary>End of the document: facts that needed the whole walk.</summary>
    public void Complete()
    {
        var cpu = Profile.Now(); // a part of the walk, shown apart by bench/index_split.py
        try
        {
            InactiveCodeFacts.Add(_sink, _tree, null);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            _sink.Failed("InactiveCode", _tree.GetRoot(), ex);
        }
        Profile.Lap("extract.walk.inactive_code", cpu);
        _middleware.Complete();
        _sink.SortBySource();
    }
}
