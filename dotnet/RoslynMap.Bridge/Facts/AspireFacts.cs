using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Configuration an Aspire AppHost gives the projects it runs, read from syntax alone (an AppHost's SDK is
/// often missing, so its project is syntax_only): `AddProject&lt;Projects.Basket_API&gt;(...)` followed by
/// `.WithEnvironment("Identity__Url", ...)` defines `Identity:Url` for Basket.API, `.WithReference(db)`
/// where `db = postgres.AddDatabase("catalogdb")` defines `ConnectionStrings:catalogdb`, and every project
/// resource gets the OpenTelemetry variables Aspire sets. Each is a ConfigDefinition fact whose
/// `aspire_project` names the project as Aspire's generated `Projects` class does (`Basket_API`); the
/// query layer matches it to the solution's project. On the service side, an Aspire client integration
/// (`AddNpgsqlDbContext&lt;T&gt;("catalogdb")`, `AddRedisClient("redis")`: a bound method whose parameter
/// is named `connectionName`) reads `ConnectionStrings:{name}`. The AppHost reads its own configuration too:
/// `AddParameter("PostgresPassword")` reads `Parameters:PostgresPassword` (an agent must not delete it from the
/// AppHost's appsettings.json: eShopSupport), `AddParameterFromConfiguration("p", "Key")` reads `Key`, and
/// `AddConnectionString("openai")` reads `ConnectionStrings:openai`.
/// </summary>
internal sealed class AspireFacts
{
    public static readonly string[] InvocationNames =
        ["AddProject", "WithEnvironment", "WithReference", "AddParameter", "AddParameterFromConfiguration", "AddConnectionString"];

    // Resources a reference reaches through service discovery (`services:{name}:http:0`), never a connection
    // string: apps and containers with endpoints (eShopSupport's AddPythonUvicornApp). Projects are told apart by
    // ChainRoot (an AddProject root).
    private static readonly HashSet<string> EndpointResources =
    [
        "AddContainer", "AddDockerfile", "AddExecutable", "AddNpmApp", "AddNodeApp", "AddJavaScriptApp",
        "AddViteApp", "AddPythonApp", "AddPythonModule", "AddPythonScript", "AddPythonUvicornApp", "AddUvicornApp",
        "AddGolangApp", "AddCSharpApp",
    ];

    // What Aspire sets in every project resource's environment (its OpenTelemetry wiring).
    private static readonly string[] ProjectDefaults = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SERVICE_NAME"];

    private readonly FactSink _sink;

    public AspireFacts(FactSink sink)
    {
        _sink = sink;
    }

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        switch (name)
        {
            case "AddProject":
                _madeProjects = true;
                if (ProjectTarget(inv) is { } project)
                    foreach (var key in ProjectDefaults) Define(inv, key, project, "aspire_default", from);
                break;
            case "WithEnvironment" when inv.ArgumentList.Arguments is [{ Expression: LambdaExpressionSyntax callback }]:
                EnvironmentCallback(inv, callback, from);
                break;
            case "WithEnvironment":
                if (EnvironmentName(FactSyntax.Arg(inv.ArgumentList, 0, "name")?.Expression, out var holes) is { } variable
                    && ProjectOfChain(FactSyntax.Receiver(inv)) is { } target
                    && (holes.Count == 0 || target.Parameter is not null))
                    Define(inv, variable.Replace("__", ":", StringComparison.Ordinal), target, "aspire_environment", from, holes);
                break;
            case "WithReference":
                if (FactSyntax.Arg(inv.ArgumentList, 0, "source")?.Expression is { } resource
                    && ResourceName(resource, out var madeBy) is { } connection
                    && !HasSolutionOverload(inv)
                    && ProjectOfChain(FactSyntax.Receiver(inv)) is { } consumer)
                {
                    if (madeBy == "AddOrleans")
                    {
                        OrleansReference(inv, resource, consumer, from);
                        break;
                    }
                    Define(inv, "ConnectionStrings:" + connection, consumer, "aspire_reference", from);
                    // Qdrant gives a second connection string, to its HTTP endpoint (eShopSupport's AddQdrantHttpClient).
                    if (madeBy == "AddQdrant") Define(inv, "ConnectionStrings:" + connection + "_http", consumer, "aspire_reference", from);
                }
                break;
            case "AddParameter" when ReadsParameterConfiguration(inv):
                ReadByAppHost(inv, "Parameters:", FactSyntax.Arg(inv.ArgumentList, 0, "name"), "aspire_parameter", from);
                break;
            case "AddParameterFromConfiguration":
                ReadByAppHost(inv, "", FactSyntax.Arg(inv.ArgumentList, 1, "configurationKey"), "aspire_parameter", from);
                break;
            case "AddConnectionString" when !BuildsConnectionString(inv):
                ReadByAppHost(inv, "ConnectionStrings:", FactSyntax.Arg(inv.ArgumentList, 0, "name"),
                    "aspire_connection_string", from);
                break;
        }
    }

    /// <summary>`AddParameter(name)` or `AddParameter(name, secret: true)` takes its value from `Parameters:{name}`;
    /// given a value (`AddParameter(name, "dev")`, a value getter) it reads no configuration.</summary>
    private static bool ReadsParameterConfiguration(InvocationExpressionSyntax inv) =>
        inv.ArgumentList.Arguments.Skip(1).All(a =>
            a.NameColon?.Name.Identifier.ValueText is "secret" or "publishValueAsDefault"
            || (a.NameColon is null && a.Expression.Kind() is SyntaxKind.TrueLiteralExpression or SyntaxKind.FalseLiteralExpression));

    /// <summary>`AddConnectionString(name, cs => cs.Append(..))` or `AddConnectionString(name, ReferenceExpression.Create(..))`
    /// (eShop's AddOpenAI): the AppHost builds the connection string from an expression and reads no configuration
    /// for it. Only `AddConnectionString(name[, environmentVariableName])` reads `ConnectionStrings:{name}`.</summary>
    private bool BuildsConnectionString(InvocationExpressionSyntax inv)
    {
        if (inv.ArgumentList.Arguments.Skip(1).FirstOrDefault() is not { } second) return false;
        if (second.NameColon?.Name.Identifier.ValueText is { } named) return named != "environmentVariableName";
        if (_sink.Model.GetSymbolInfo(inv).Symbol is IMethodSymbol bound && (bound.ReducedFrom ?? bound) is var method
            && method.Parameters.Length > (bound.ReducedFrom is null ? 1 : 2))
            return method.Parameters[bound.ReducedFrom is null ? 1 : 2].Type.SpecialType != SpecialType.System_String;
        // Unbound (the AppHost's SDK is missing): a builder callback or a `ReferenceExpression.Create(..)` call.
        return FactSyntax.Unwrap(second.Expression) is LambdaExpressionSyntax
            || FactSyntax.Unwrap(second.Expression) is InvocationExpressionSyntax call && FactSyntax.NameText(call) != "nameof";
    }

    /// <summary>A configuration key the AppHost reads itself, on a distributed application builder: bound (high),
    /// else matched by syntax on a receiver named like a builder (medium: Aspire's SDK is missing).</summary>
    private void ReadByAppHost(InvocationExpressionSyntax inv, string prefix, ArgumentSyntax? nameArgument, string pattern,
        string? from)
    {
        if (FactSyntax.ConstantString(_sink.Model, nameArgument?.Expression) is not { Length: > 0 } name) return;
        string confidence;
        var bound = _sink.Model.GetSymbolInfo(inv).Symbol as IMethodSymbol;
        if (bound is not null)
        {
            if (bound.ContainingNamespace?.ToDisplayString().StartsWith("Aspire.Hosting", StringComparison.Ordinal) != true) return;
            confidence = Confidence.High;
        }
        else if (OnBuilder(inv)) confidence = Confidence.Medium;
        else return;
        _sink.Add(FactKinds.Config, from, FactSyntax.Name(inv)!.SpanStart, confidence, prefix + name,
            new FactDetail().Add("pattern", pattern));
    }

    /// <summary>An `Add*` call with a constant first argument bound to a method whose parameter there is
    /// named `connectionName`: an Aspire client integration reading `ConnectionStrings:{name}`.</summary>
    public void ClientIntegration(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (!name.StartsWith("Add", StringComparison.Ordinal) || name == "Add" || inv.ArgumentList.Arguments.Count == 0) return;
        var first = inv.ArgumentList.Arguments[0];
        // Cheap filters before binding (Add* calls are everywhere): a string literal, or a named constant
        // handed to a method named like a client integration.
        if (first.Expression is not LiteralExpressionSyntax
            && !(first.Expression is IdentifierNameSyntax or MemberAccessExpressionSyntax
                 && ClientSuffixes.Any(suffix => name.EndsWith(suffix, StringComparison.Ordinal)))) return;
        if (Integration(_sink.Model, inv, name, LooksLikeClientIntegration(inv, name)) is not { Confidence: var confidence }
            || FactSyntax.ConstantString(_sink.Model, first.Expression) is not { } connection) return;
        _sink.Add(FactKinds.Config, from, FactSyntax.Name(inv)!.SpanStart, confidence, "ConnectionStrings:" + connection,
            new FactDetail().Add("pattern", "connection_name"));
    }

    /// <summary>A client integration call (its first argument the connection's name): bound to a method whose
    /// parameter there is `connectionName`, or `name` for a keyed one (`AddKeyedRedisClient(name)`: the service key
    /// and the connection), confidence high; unbound and `looksLikeOne` (its package is missing), medium; else null.
    /// `Method`: what it binds to (a use-site error leaves the one method as a candidate).</summary>
    internal static (string Confidence, IMethodSymbol? Method)? Integration(SemanticModel model, InvocationExpressionSyntax inv,
        string name, bool looksLikeOne)
    {
        var info = model.GetSymbolInfo(inv);
        if ((info.Symbol ?? (info.CandidateSymbols.Length == 1 ? info.CandidateSymbols[0] : null)) is not IMethodSymbol method)
            return looksLikeOne ? (Confidence.Medium, null) : null;
        var parameters = (method.ReducedFrom ?? method).Parameters;
        var position = method.ReducedFrom is null ? 0 : 1;
        var first = inv.ArgumentList.Arguments[0];
        var parameterName = first.NameColon?.Name.Identifier.ValueText ?? (position < parameters.Length ? parameters[position].Name : null);
        var keyed = name.StartsWith("AddKeyed", StringComparison.Ordinal) && parameterName == "name" && !InSource(method);
        return parameterName == "connectionName" || keyed ? (Confidence.High, method) : null;
    }

    // The names Aspire's client integrations end with (AddNpgsqlDbContext, AddRedisClient, AddNpgsqlDataSource...).
    private static readonly string[] ClientSuffixes = ["Client", "DbContext", "DataSource", "DistributedCache", "OutputCache"];

    /// <summary>Unbound (the integration's package is missing): `builder.AddXxxClient("name")` on a host
    /// builder, named as Aspire names its client integrations.</summary>
    private static bool LooksLikeClientIntegration(InvocationExpressionSyntax inv, string name) =>
        inv.ArgumentList.Arguments[0].Expression is LiteralExpressionSyntax && OnBuilder(inv)
        && ClientSuffixes.Any(s => name.EndsWith(s, StringComparison.Ordinal));

    /// <summary>Called on a local or parameter named like a builder (`builder`, `appBuilder`): what an unbound
    /// Aspire call is recognised by when its package is missing.</summary>
    internal static bool OnBuilder(InvocationExpressionSyntax inv) =>
        FactSyntax.Receiver(inv) is IdentifierNameSyntax receiver
        && receiver.Identifier.ValueText.EndsWith("uilder", StringComparison.Ordinal);

    /// <summary>What a builder chain configures: a project (`Basket_API`), or the project resource a method of
    /// the AppHost is handed in a parameter (its callers say which: AspireProjectArgument facts).</summary>
    private sealed record Target(string? Project, ISymbol? Parameter);

    private void Define(InvocationExpressionSyntax inv, string key, Target target, string pattern, string? from,
        IReadOnlyList<string>? resourceHoles = null, int? at = null)
    {
        var detail = new FactDetail().Add("pattern", pattern);
        if (target.Project is not null) detail.Add("aspire_project", target.Project);
        else detail.Add("aspire_member", _sink.IdOf(target.Parameter!.ContainingSymbol)).Add("aspire_parameter", target.Parameter.Name)
            .Add("aspire_resources", resourceHoles);
        _sink.Add(FactKinds.ConfigDefinition, from, at ?? FactSyntax.Name(inv)!.SpanStart, Confidence.High, key, detail);
    }

    /// <summary>`project.WithEnvironment(c => c.EnvironmentVariables["HEALTHCHECKSUI_URLS"] = ...)` (aspire-samples'
    /// HealthChecksUI), or `.EnvironmentVariables.Add("K", v)`: each constant name the callback sets is defined, where
    /// it is set.</summary>
    private void EnvironmentCallback(InvocationExpressionSyntax inv, LambdaExpressionSyntax callback, string? from)
    {
        var context = callback switch
        {
            SimpleLambdaExpressionSyntax simple => simple.Parameter.Identifier.ValueText,
            ParenthesizedLambdaExpressionSyntax { ParameterList.Parameters: [var only] } => only.Identifier.ValueText,
            _ => null,
        };
        if (context is null || ProjectOfChain(FactSyntax.Receiver(inv)) is not { } target) return;
        bool IsVariables(ExpressionSyntax e) => e is MemberAccessExpressionSyntax
        {
            Name.Identifier.ValueText: "EnvironmentVariables", Expression: IdentifierNameSyntax owner,
        } && owner.Identifier.ValueText == context;
        foreach (var node in callback.Body.DescendantNodesAndSelf())
        {
            var name = node switch
            {
                ElementAccessExpressionSyntax { ArgumentList.Arguments: [var key] } access when IsVariables(access.Expression) => key.Expression,
                InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Add" or "TryAdd" } add } call
                    when IsVariables(add.Expression) && call.ArgumentList.Arguments.Count == 2 => call.ArgumentList.Arguments[0].Expression,
                _ => null,
            };
            if (FactSyntax.ConstantString(_sink.Model, name) is { } variable)
                Define(inv, variable.Replace("__", ":", StringComparison.Ordinal), target, "aspire_environment", from, at: node.SpanStart);
        }
    }

    // The Orleans resource's calls naming the resources its providers use (the last argument of each).
    private static readonly HashSet<string> OrleansProviders =
        ["WithClustering", "WithGrainStorage", "WithReminders", "WithStreaming", "WithGrainDirectory", "WithBroadcastChannel"];

    /// <summary>`WithReference(orleans)` where `orleans = builder.AddOrleans("cluster").WithClustering(redis)...`
    /// (aspire-samples' OrleansVoting): no `ConnectionStrings:cluster`; Aspire gives the project the `Orleans`
    /// section UseOrleans reads (its cluster and service ids) and the connection strings of the resources the
    /// providers use.</summary>
    private void OrleansReference(InvocationExpressionSyntax inv, ExpressionSyntax resource, Target consumer, string? from)
    {
        foreach (var key in new[] { "Orleans:ClusterId", "Orleans:ServiceId" }) Define(inv, key, consumer, "aspire_reference", from);
        var chain = FactSyntax.Unwrap(resource) is IdentifierNameSyntax id && _sink.Model.GetSymbolInfo(id).Symbol is ILocalSymbol local
            ? FactSyntax.LocalInitializer(local) : resource;
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var call in FactSyntax.ChainBelow(chain))
        {
            if (FactSyntax.NameText(call) is not { } name || !OrleansProviders.Contains(name) || call.ArgumentList.Arguments.Count == 0) continue;
            if (ResourceName(call.ArgumentList.Arguments[^1].Expression, out _) is { } backing && seen.Add(backing))
                Define(inv, "ConnectionStrings:" + backing, consumer, "aspire_reference", from);
        }
    }

    /// <summary>An environment variable's name: a constant, or (in a method of the AppHost) an interpolation of the
    /// names of resources the method is handed, `$"{ollama.Resource.Name}:Type"` → `{ollama}:Type` with the hole
    /// `ollama` (eShopSupport's own WithReference overload): its callers say which resource (`resources`).</summary>
    private string? EnvironmentName(ExpressionSyntax? e, out List<string> holes)
    {
        holes = [];
        if (e is null) return null;
        if (FactSyntax.ConstantString(_sink.Model, e) is { } constant) return constant;
        if (FactSyntax.Unwrap(e) is not InterpolatedStringExpressionSyntax interpolated) return null;
        var text = new System.Text.StringBuilder();
        foreach (var part in interpolated.Contents)
        {
            if (part is InterpolatedStringTextSyntax literal) text.Append(literal.TextToken.ValueText);
            else if (part is InterpolationSyntax { Expression: var hole } && ResourceNameParameter(hole) is { } parameter)
            {
                text.Append('{').Append(parameter).Append('}');
                if (!holes.Contains(parameter)) holes.Add(parameter);
            }
            else if (part is InterpolationSyntax { Expression: var other } && FactSyntax.ConstantString(_sink.Model, other) is { } value)
                text.Append(value);
            else return null;
        }
        return text.ToString();
    }

    /// <summary>`ollama.Resource.Name` where `ollama` is a parameter of the enclosing method: that parameter's name.</summary>
    private string? ResourceNameParameter(ExpressionSyntax e) =>
        FactSyntax.Unwrap(e) is MemberAccessExpressionSyntax
        {
            Name.Identifier.ValueText: "Name",
            Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Resource", Expression: IdentifierNameSyntax id },
        } && _sink.Model.GetSymbolInfo(id).Symbol is IParameterSymbol { ContainingSymbol: IMethodSymbol } parameter
            ? parameter.Name
            : null;

    /// <summary>A `WithReference` of the solution's own for this resource's type (eShopSupport's
    /// `WithReference(this IResourceBuilder&lt;T&gt;, IResourceBuilder&lt;OllamaResource&gt;)`): what it gives is read
    /// from its body (its keys, AspireProjectArgument facts), not taken for Aspire's connection string.</summary>
    private bool HasSolutionOverload(InvocationExpressionSyntax inv) =>
        SolutionMethods(inv, "WithReference").Any(InSource);

    // Set once this document has made a project resource: only then can a call hand one over.
    private bool _madeProjects;

    /// <summary>`builder.AddOllama(catalogApi, webApp)` after `var catalogApi = builder.AddProject&lt;…&gt;(…)`: each
    /// project resource handed to a method of the solution, by the parameter it lands in. The AppHost usually
    /// does not bind (its SDK is missing), so the method is found by name among the solution's methods.</summary>
    public void ProjectArguments(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (name == "AddProject") return;
        var receiver = FactSyntax.Receiver(inv);
        var typeArguments = FactSyntax.TypeArgs(inv);
        // `backend.WithReference(ollama)` with the solution's own extension method: the receiver is handed too.
        if (!_madeProjects && !FactSyntax.ChainBelow(receiver).Any(c => FactSyntax.NameText(c) == "AddProject")
            && !typeArguments.Any(IsGeneratedProject)) return;
        _madeProjects = true;
        List<IMethodSymbol>? methods = null;
        // `builder.AddBitwardenService<Projects.Admin>(...)`: a project handed as a type argument.
        foreach (var (type, position) in typeArguments.Select((t, i) => (t, i)).Where(t => IsGeneratedProject(t.t)))
        {
            foreach (var method in (methods ??= SolutionMethods(inv, name).ToList()).Where(m => m.TypeParameters.Length > position))
                HandedProject(inv, method, method.TypeParameters[position], ((QualifiedNameSyntax)type).Right.Identifier.ValueText,
                    type.SpanStart, from);
        }
        if (receiver is not null && ProjectOfChain(receiver) is { Project: { } consumer })
        {
            methods = SolutionMethods(inv, name).ToList();
            foreach (var method in methods.Where(m => m.IsExtensionMethod && InSource(m)))
                HandedProject(inv, method, method.Parameters[0], consumer, receiver.SpanStart, from);
        }
        foreach (var (argument, position) in inv.ArgumentList.Arguments.Select((a, i) => (a, i)))
        {
            if (FactSyntax.Unwrap(argument.Expression) is not IdentifierNameSyntax) continue;
            if (ProjectOfChain(argument.Expression) is not { Project: { } project }) continue;
            foreach (var method in methods ??= SolutionMethods(inv, name).ToList())
            {
                var parameter = FactSyntax.ParameterOf(method, argument, position, ReceiverOffset(method, inv));
                if (parameter is null) continue;
                HandedProject(inv, method, parameter, project, argument.SpanStart, from);
            }
        }
    }

    /// <summary>An AspireProjectArgument fact: `method` is handed `project` in `parameter` at this call, with the
    /// names of the other resources the call hands it (`resources`: `ollama=chatcompletion`), which fill the
    /// holes of the keys the method defines.</summary>
    private void HandedProject(InvocationExpressionSyntax inv, IMethodSymbol method, ISymbol parameter, string project,
        int position, string? from)
    {
        var resources = new List<string>();
        foreach (var (argument, index) in inv.ArgumentList.Arguments.Select((a, i) => (a, i)))
        {
            if (FactSyntax.ParameterOf(method, argument, index, ReceiverOffset(method, inv))
                    is not { } handed || handed.Equals(parameter, SymbolEqualityComparer.Default)) continue;
            if (ChainRoot(argument.Expression, out var addProject, out _) is { } made && addProject is null
                && FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(made.ArgumentList, 0, "name")?.Expression) is { } resource)
                resources.Add(handed.Name + "=" + resource);
        }
        _sink.Add(FactKinds.AspireProjectArgument, from, position, Confidence.High, _sink.IdOf(method) ?? method.Name,
            new FactDetail().Add("parameter", parameter.Name).Add("aspire_project", project).Add("resources", resources));
    }

    /// <summary>The method a call binds to, else the solution's methods of that name that fit its arguments.</summary>
    private IEnumerable<IMethodSymbol> SolutionMethods(InvocationExpressionSyntax inv, string name, int depth = 0)
    {
        var info = _sink.Model.GetSymbolInfo(inv);
        if (info.Symbol is IMethodSymbol bound) return [bound.ReducedFrom ?? bound];
        return _sink.Model.Compilation.GetSymbolsWithName(name, SymbolFilter.Member).OfType<IMethodSymbol>()
            .Where(m => InSource(m) && Fits(m, inv, depth));
    }

    /// <summary>`Projects.Admin`: a project as Aspire's generated `Projects` class names it.</summary>
    private static bool IsGeneratedProject(TypeSyntax type) =>
        type is QualifiedNameSyntax { Left: IdentifierNameSyntax { Identifier.ValueText: "Projects" } };

    private static bool InSource(ISymbol symbol) => symbol.Locations.Any(l => l.IsInSource);

    /// <summary>1 when the call's receiver is the extension method's first parameter (`builder.AddX(a)`: `a` is the
    /// second), else 0.</summary>
    private static int ReceiverOffset(IMethodSymbol method, InvocationExpressionSyntax inv) =>
        method.IsExtensionMethod && FactSyntax.Receiver(inv) is not null ? 1 : 0;

    /// <summary>Overload resolution for an unbound call, as far as syntax tells: the arguments fit the parameters
    /// in number, and a parameter whose type names a type of the solution (`IResourceBuilder&lt;OllamaResource&gt;`)
    /// is handed a resource the solution's own `Add*` method makes with that type. Else any overload of that
    /// name would claim every `WithReference` call.</summary>
    private bool Fits(IMethodSymbol method, InvocationExpressionSyntax inv, int depth)
    {
        var receiver = FactSyntax.Receiver(inv);
        var offset = ReceiverOffset(method, inv);
        var arguments = inv.ArgumentList.Arguments;
        var required = method.Parameters.Count(p => !p.IsOptional && !p.IsParams);
        if (arguments.Count + offset < required
            || (arguments.Count + offset > method.Parameters.Length && !method.Parameters.Any(p => p.IsParams))) return false;
        // The receiver too: aspire-samples' `WithReference(this IResourceBuilder<HealthChecksUIResource>, project)`
        // is not what `webFrontend.WithReference(cache)` calls.
        if (offset == 1 && WrapsSolutionType(method.Parameters[0].Type)
            && !MadeTypes(receiver!, depth).Contains(method.Parameters[0].Type.ToDisplayString())) return false;
        foreach (var (argument, position) in arguments.Select((a, i) => (a, i)))
        {
            if (FactSyntax.ParameterOf(method, argument, position, offset) is not { } parameter) return false;
            if (WrapsSolutionType(parameter.Type) && !MadeTypes(argument.Expression, depth).Contains(parameter.Type.ToDisplayString()))
                return false;
        }
        return true;
    }

    /// <summary>A resource of a type of the solution's (`IResourceBuilder&lt;OllamaResource&gt;`): what only a resource
    /// the solution's own `Add*` makes fits. A value of a solution type itself (eShop's `OpenAITarget.OpenAI`, an enum)
    /// is no resource: syntax cannot check it.</summary>
    private static bool WrapsSolutionType(ITypeSymbol type) =>
        type is INamedTypeSymbol { TypeArguments.Length: > 0 } named && named.TypeArguments.Any(NamesSolutionType);

    private static bool NamesSolutionType(ITypeSymbol type) =>
        type is INamedTypeSymbol named
        && (InSource(named) || named.TypeArguments.Any(NamesSolutionType));

    /// <summary>The types the solution's `Add*` methods of the name that made this resource return (none when
    /// the resource is a project, a parameter or made by a method of a package).</summary>
    private HashSet<string> MadeTypes(ExpressionSyntax resource, int depth)
    {
        if (depth > 3 || ChainRoot(resource, out var addProject, out _) is not { } made || addProject is not null
            || FactSyntax.NameText(made) is not { } maker) return [];
        return SolutionMethods(made, maker, depth + 1).Select(m => m.ReturnType.ToDisplayString()).ToHashSet(StringComparer.Ordinal);
    }

    /// <summary>`AddProject&lt;Projects.Basket_API&gt;(...)`: `Basket_API`; `AddProject("name", "../Api/Api.csproj")`:
    /// the project file's name.</summary>
    private string? ProjectOf(InvocationExpressionSyntax inv)
    {
        var typeArgs = FactSyntax.TypeArgs(inv);
        if (typeArgs.Count == 1)
            return typeArgs[0] switch
            {
                QualifiedNameSyntax q => q.Right.Identifier.ValueText,
                SimpleNameSyntax s => s.Identifier.ValueText,
                _ => null,
            };
        var path = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 1, "projectPath")?.Expression);
        return path is null ? null : Path.GetFileNameWithoutExtension(path.Replace('\\', '/'));
    }

    /// <summary>The project resource a builder chain stands for: an `AddProject` call in the chain, or a
    /// local of the enclosing member assigned from one.</summary>
    private Target? ProjectOfChain(ExpressionSyntax? receiver)
    {
        ChainRoot(receiver, out var addProject, out var parameter);
        if (addProject is not null) return ProjectTarget(addProject);
        return parameter is not null ? new Target(null, parameter) : null;
    }

    /// <summary>`AddProject&lt;Projects.Api&gt;(...)`: Api; `AddProject&lt;TProject&gt;(name)` in a generic method of the
    /// AppHost (bitwarden's `AddBitwardenService&lt;TProject&gt;`, called with `Projects.Admin`...): the method's type
    /// parameter, which its callers' type arguments name (AspireProjectArgument facts).</summary>
    private Target? ProjectTarget(InvocationExpressionSyntax addProject)
    {
        if (FactSyntax.TypeArgs(addProject) is [var only]
            && _sink.Model.GetSymbolInfo(only).Symbol is ITypeParameterSymbol { DeclaringMethod: not null } typeParameter)
            return new Target(null, typeParameter);
        return ProjectOf(addProject) is { } project ? new Target(project, null) : null;
    }

    /// <summary>The name of the resource an expression stands for (the first constant argument of the `Add*`
    /// call that made it), unless it is a project, an app or container with endpoints, or an endpoint (a
    /// reference to those is service discovery, not a connection string).</summary>
    private string? ResourceName(ExpressionSyntax resource, out string? madeBy)
    {
        madeBy = null;
        // `WithReference(container.GetEndpoint("http"))`: an endpoint, found by service discovery.
        if (FactSyntax.Unwrap(resource) is InvocationExpressionSyntax endpoint && FactSyntax.NameText(endpoint) == "GetEndpoint")
            return null;
        var made = ChainRoot(resource, out var addProject, out _);
        if (addProject is not null || made is null || EndpointResources.Contains(FactSyntax.NameText(made) ?? "")) return null;
        madeBy = FactSyntax.NameText(made);
        return FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(made.ArgumentList, 0, "name")?.Expression);
    }

    /// <summary>Walks a fluent chain down to the call that created the resource (the innermost `Add*` call),
    /// through the initializers of locals. `addProject`: that call when it is AddProject.</summary>
    private InvocationExpressionSyntax? ChainRoot(ExpressionSyntax? e, out InvocationExpressionSyntax? addProject,
        out IParameterSymbol? parameter)
    {
        addProject = null;
        parameter = null;
        for (var hops = 0; e is not null && hops < 64; hops++)
        {
            e = FactSyntax.Unwrap(e);
            if (e is InvocationExpressionSyntax call)
            {
                var name = FactSyntax.NameText(call);
                if (name == "AddProject")
                {
                    addProject = call;
                    return call;
                }
                // The outermost Add* call made the resource (`postgres.AddDatabase("catalogdb")`).
                if (name is not null && name.StartsWith("Add", StringComparison.Ordinal)) return call;
                e = FactSyntax.Receiver(call);
                continue;
            }
            // A local binds even where the project could not be evaluated (the AppHost's SDK is missing).
            if (e is IdentifierNameSyntax id && _sink.Model.GetSymbolInfo(id).Symbol is ILocalSymbol local
                && FactSyntax.LocalInitializer(local) is { } initializer)
            {
                e = initializer;
                continue;
            }
            // A method's parameter (eShop's AddOllama(builder, catalogApi, webApp)): its callers say which project.
            if (e is IdentifierNameSyntax p && _sink.Model.GetSymbolInfo(p).Symbol is IParameterSymbol { ContainingSymbol: IMethodSymbol } handed)
                parameter = handed;
            break;
        }
        return null;
    }
}
