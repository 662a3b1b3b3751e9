using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Service registrations: Add/TryAdd/AddKeyed/TryAddKeyed + Scoped/Transient/Singleton in generic,
/// typeof, factory and instance forms. Service and implementation ids are in the detail so that
/// calls through an interface can be followed to the registered implementation.
/// </summary>
internal sealed class DiFacts
{
    private readonly FactSink _sink;
    private readonly DiTypes _types;

    public DiFacts(FactSink sink)
    {
        _sink = sink;
        _types = new DiTypes(sink);
    }

    public static IEnumerable<string> InvocationNames =>
        from prefix in new[] { "Add", "TryAdd", "AddKeyed", "TryAddKeyed" }
        from lifetime in new[] { "Scoped", "Transient", "Singleton" }
        select prefix + lifetime;

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.DependencyInjection);
        if (binding == Binding.Other) return;
        if (binding == Binding.Unbound && !HoldsServices(FactSyntax.Receiver(inv))) return;
        Register(name, inv.ArgumentList.Arguments.ToList(), _types.TypeArguments(inv, symbol as IMethodSymbol), binding,
            FactSyntax.Name(inv)!.SpanStart, from);
    }

    /// <summary>Unbound, a receiver is taken for the service collection by its name (`services`, `builder.Services`),
    /// or by a local's initializer: IfpaMaui's `var s = builder.Services; s.AddSingleton&lt;IDeepLinkService,
    /// DeepLinkService&gt;();` with MAUI not restored.</summary>
    private bool HoldsServices(ExpressionSyntax? receiver) =>
        FactSyntax.NameContains(receiver, "services")
        || receiver is IdentifierNameSyntax local && _sink.Model.GetSymbolInfo(local).Symbol is ILocalSymbol symbol
        && symbol.DeclaringSyntaxReferences is [var declared]
        && declared.GetSyntax() is VariableDeclaratorSyntax { Initializer.Value: var value }
        && FactSyntax.NameContains(value, "services");

    private static readonly HashSet<string> DescriptorAdds = new(StringComparer.Ordinal) { "Add", "TryAdd", "TryAddEnumerable", "Replace" };
    private static readonly HashSet<string> DescriptorLifetimes = new(StringComparer.Ordinal)
    {
        "Scoped", "Transient", "Singleton", "KeyedScoped", "KeyedTransient", "KeyedSingleton", "Describe", "DescribeKeyed",
    };

    /// <summary>Cheap syntax test for the dispatcher: `services.TryAddEnumerable(ServiceDescriptor.Scoped&lt;I, T&gt;())`,
    /// `services.Add(new ServiceDescriptor(typeof(I), typeof(T), ServiceLifetime.Scoped))` (fullstackhero's
    /// authorization handler, Practical.CleanArchitecture).</summary>
    public static bool IsDescriptorAdd(InvocationExpressionSyntax inv, string name) =>
        DescriptorAdds.Contains(name) && inv.ArgumentList.Arguments.Count == 1
        && (FactSyntax.NameContains(FactSyntax.Receiver(inv), "services") || FactSyntax.NameContains(FactSyntax.Receiver(inv), "serviceCollection"))
        && FactSyntax.Unwrap(inv.ArgumentList.Arguments[0].Expression) switch
        {
            InvocationExpressionSyntax inner => FactSyntax.NameText(inner) is { } n && DescriptorLifetimes.Contains(n)
                                                && FactSyntax.Receiver(inner)?.ToString().EndsWith("ServiceDescriptor", StringComparison.Ordinal) == true,
            ObjectCreationExpressionSyntax creation => creation.Type.ToString().EndsWith("ServiceDescriptor", StringComparison.Ordinal),
            _ => false,
        };

    /// <summary>A registration made from a ServiceDescriptor (IsDescriptorAdd): the descriptor's factory method or
    /// constructor says the service, implementation and lifetime, as AddScoped&lt;I, T&gt;() would.</summary>
    public void Descriptor(InvocationExpressionSyntax inv, string name, string? from)
    {
        var prefix = name == "Add" || name == "Replace" ? "Add" : "TryAdd";
        var anchor = FactSyntax.Name(inv)!.SpanStart;
        switch (FactSyntax.Unwrap(inv.ArgumentList.Arguments[0].Expression))
        {
            case InvocationExpressionSyntax inner:
            {
                var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inner, FrameworkApi.DependencyInjection);
                if (binding == Binding.Other) return;
                var innerName = FactSyntax.NameText(inner)!;
                var args = inner.ArgumentList.Arguments.ToList();
                var keyed = innerName.Contains("Keyed", StringComparison.Ordinal);
                var lifetime = innerName.Replace("Keyed", "");
                if (lifetime.StartsWith("Describe", StringComparison.Ordinal))
                {
                    if (args.Count == 0 || LifetimeOf(args[^1].Expression) is not { } described) return;
                    lifetime = described;
                    args.RemoveAt(args.Count - 1);
                }
                Register(prefix + (keyed ? "Keyed" : "") + lifetime, args, _types.TypeArguments(inner, symbol as IMethodSymbol),
                    binding, anchor, from);
                break;
            }
            case ObjectCreationExpressionSyntax creation when creation.ArgumentList is { } list:
            {
                var (binding, _) = FrameworkApi.Classify(_sink.Model, creation, FrameworkApi.DependencyInjection);
                if (binding == Binding.Other) return;
                var args = list.Arguments.ToList();
                // (Type, Type, lifetime), (Type, factory, lifetime), or (Type, instance): a singleton. A lifetime
                // known only at run time, or the keyed (Type, key, Type, lifetime) form, is not read: no guess.
                if (args.Count > 3) return;
                var lifetime = args.Count > 0 ? LifetimeOf(args[^1].Expression) : null;
                if (lifetime is null && args.Count == 3) return;
                if (lifetime is not null) args.RemoveAt(args.Count - 1);
                Register(prefix + (lifetime ?? "Singleton"), args, [], binding, anchor, from);
                break;
            }
        }
    }

    /// <summary>`ServiceLifetime.Scoped` -> "Scoped".</summary>
    private static string? LifetimeOf(ExpressionSyntax expression) =>
        FactSyntax.Unwrap(expression) is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Scoped" or "Transient" or "Singleton" } access
        && access.Expression.ToString().EndsWith("ServiceLifetime", StringComparison.Ordinal)
            ? access.Name.Identifier.ValueText : null;

    /// <summary>One registration: `name` the Add/TryAdd/AddKeyed method it is (or stands for), its arguments and type
    /// arguments; the fact at `anchor`.</summary>
    private void Register(string name, List<ArgumentSyntax> args, IReadOnlyList<DiType> typeArgs, Binding binding,
        int anchor, string? from)
    {
        var isTry = name.StartsWith("Try", StringComparison.Ordinal);
        var keyed = name.Contains("Keyed", StringComparison.Ordinal);
        var lifetime = name[(name.LastIndexOf("Add", StringComparison.Ordinal) + 3)..].Replace("Keyed", "");
        // A generic keyed overload's typeof is its key, not its service (eShop's
        // `AddKeyedTransient<IIntegrationEventHandler, TH>(typeof(T))`).
        var typeofIsKey = keyed && typeArgs.Count > 0;
        bool IsTypeOf(ArgumentSyntax a) => !typeofIsKey && FactSyntax.Unwrap(a.Expression) is TypeOfExpressionSyntax;
        var typeofArgs = args.Where(IsTypeOf).Select(a => (TypeOfExpressionSyntax)FactSyntax.Unwrap(a.Expression)).ToList();
        var factory = args.FirstOrDefault(IsFactory);
        // Keyed overloads take the key right after the service type: the first argument that is
        // neither a typeof nor a factory (an instance always comes after it).
        var keyArg = keyed ? args.FirstOrDefault(a => !IsTypeOf(a) && !IsFactory(a)) : null;
        var others = args.Where(a => a != keyArg && a != factory && !IsTypeOf(a)).ToList();

        DiType service;
        DiType? implementation;
        string form;
        var forwarded = false;
        if (typeofArgs.Count == 1 && factory is null && others.Count > 0 && IsSystemType(others[0].Expression))
        {
            // `AddSingleton(typeof(IAuthorizationHandler), type)` with `type` a System.Type found at run time
            // (Practical.CleanArchitecture's scan): the (Type, Type) overload, its implementation unknown here.
            form = "typeof";
            service = _types.Named(typeofArgs[0].Type);
            implementation = null;
        }
        else if (typeofArgs.Count == 1 && factory is null && others.Count > 0)
        {
            // `AddSingleton(typeof(IModuleInitializer), moduleInitializer)` (SimplCommerce): the object given is the service.
            form = "instance";
            service = _types.Named(typeofArgs[0].Type);
            implementation = _types.InstanceType(others[0].Expression);
        }
        else if (typeofArgs.Count > 0)
        {
            form = "typeof";
            service = _types.Named(typeofArgs[0].Type);
            implementation = typeofArgs.Count > 1 ? _types.Named(typeofArgs[1].Type) : factory is null ? service : FromFactory(factory, ref forwarded);
        }
        else if (typeArgs.Count > 0)
        {
            service = typeArgs[0];
            if (factory is not null)
            {
                form = "factory";
                implementation = typeArgs.Count > 1 ? typeArgs[1] : FromFactory(factory, ref forwarded);
            }
            else if (others.Count > 0)
            {
                form = "instance";
                implementation = typeArgs.Count > 1 ? typeArgs[1] : _types.InstanceType(others[0].Expression);
            }
            else
            {
                form = "generic";
                implementation = typeArgs.Count > 1 ? typeArgs[1] : service;
            }
        }
        else if (factory is not null && _types.FactoryResult(factory.Expression) is { } made)
        {
            // `AddScoped(sp => new QdrantMemoryStore(...))`: T inferred from the factory, which does not bind when
            // the type's package is missing (eShopSupport): what the factory creates is the service.
            form = "factory";
            service = made;
            implementation = made;
        }
        else return;

        var key = keyArg is null ? null : KeyText(keyArg.Expression);
        // `AddKeyedTransient<I, THandler>(typeof(TEvent))` in a generic extension: its callers' TEvent is the key.
        var keyTypeParameter = keyArg is not null && FactSyntax.Unwrap(keyArg.Expression) is TypeOfExpressionSyntax keyType
            ? MethodTypeParameter(_types.Named(keyType.Type)) : null;
        var detail = new FactDetail().Add("lifetime", lifetime).Add("implementation", implementation?.Name).Add("form", form)
                .Add("try", isTry).Add("key", key).Add("service_id", service.Id).Add("implementation_id", implementation?.Id)
                .Add("service_type_parameter", MethodTypeParameter(service))
                .Add("implementation_type_parameter", MethodTypeParameter(implementation))
                .Add("key_type_parameter", keyTypeParameter);
        if (forwarded) detail.Add("forwarded", true);
        if (factory is not null) detail.Add("constructs", _types.ConstructedInside(factory.Expression, implementation));
        _sink.Add(FactKinds.DiRegistration, from, anchor, FrameworkApi.ConfidenceOf(binding)!, service.Name, detail);
    }

    /// <summary>What a factory makes: the type it creates, else the registered service it hands over (`forwarded`).</summary>
    private DiType? FromFactory(ArgumentSyntax factory, ref bool forwarded)
    {
        if (_types.FactoryResult(factory.Expression) is { } made) return made;
        var handed = _types.FactoryForward(factory.Expression);
        forwarded = handed is not null;
        return handed;
    }

    /// <summary>A lambda or a method group given as the factory, or a delegate held in a variable (jellyfin's
    /// `AddSingleton&lt;IJellyfinDatabaseProvider&gt;(providerFactory!)`, a `Func&lt;IServiceProvider, T&gt;` local).</summary>
    private bool IsFactory(ArgumentSyntax arg)
    {
        if (FactSyntax.IsLambda(arg.Expression)) return true;
        if (FactSyntax.Unwrap(arg.Expression) is not (IdentifierNameSyntax or MemberAccessExpressionSyntax)) return false;
        var info = _sink.Model.GetSymbolInfo(arg.Expression);
        if (Bound.ForFacts(info) is IMethodSymbol) return true;
        if (_sink.Model.GetTypeInfo(arg.Expression).Type is not INamedTypeSymbol { TypeKind: TypeKind.Delegate } d
            || d.DelegateInvokeMethod?.Parameters is not [{ Type.Name: "IServiceProvider" }, ..]) return false;
        // The overload decides: `AddSingleton<Func<IServiceProvider, T>>(f)` registers f itself, an instance.
        var call = arg.Parent?.Parent as InvocationExpressionSyntax;
        var method = call is null ? null : Bound.ForFacts(_sink.Model.GetSymbolInfo(call)) as IMethodSymbol;
        var index = call?.ArgumentList.Arguments.IndexOf(arg) ?? -1;
        var parameter = method?.OriginalDefinition.Parameters.ElementAtOrDefault(index); // reduced or not, arguments and parameters align
        return parameter is null || parameter.Type is INamedTypeSymbol { TypeKind: TypeKind.Delegate };
    }

    private string KeyText(ExpressionSyntax key)
    {
        // String keys by value; anything else (enum members, objects) as written.
        return FactSyntax.ConstantString(_sink.Model, key) ?? FactSyntax.Collapse(key.ToString());
    }

    /// <summary>What well-known `Add*` extensions register, where it is knowable: service (a type
    /// argument's position, or a fixed name), lifetime. Others are recorded by their call name.</summary>
    private static readonly Dictionary<string, (int TypeArg, string? Service, string? Lifetime)> KnownExtensions = new(StringComparer.Ordinal)
    {
        ["AddOptions"] = (0, "IOptions<{0}>", "Singleton"),
        ["Configure"] = (0, "IOptions<{0}>", "Singleton"),
        ["AddDbContext"] = (0, null, "Scoped"),
        ["AddDbContextPool"] = (0, null, "Scoped"),
        ["AddDbContextFactory"] = (0, "IDbContextFactory<{0}>", "Singleton"),
        ["AddPooledDbContextFactory"] = (0, "IDbContextFactory<{0}>", "Singleton"),
        // The provider shortcuts (TodoApi's `AddSqlite<TodoDbContext>(cs)`): AddDbContext with the provider chosen.
        ["AddSqlite"] = (0, null, "Scoped"),
        ["AddSqlServer"] = (0, null, "Scoped"),
        ["AddNpgsql"] = (0, null, "Scoped"),
        ["AddMySql"] = (0, null, "Scoped"),
        ["AddCosmos"] = (0, null, "Scoped"),
        ["AddIdentity"] = (0, "UserManager<{0}>", "Scoped"),
        ["AddIdentityCore"] = (0, "UserManager<{0}>", "Scoped"),
        ["AddDefaultIdentity"] = (0, "UserManager<{0}>", "Scoped"),
        ["AddMemoryCache"] = (-1, "IMemoryCache", "Singleton"),
        ["AddDistributedMemoryCache"] = (-1, "IDistributedCache", "Singleton"),
        ["AddStackExchangeRedisCache"] = (-1, "IDistributedCache", "Singleton"),
        ["AddHttpClient"] = (0, null, "Transient"),
        ["AddMediatR"] = (-1, "IMediator", "Transient"),
        ["AddAutoMapper"] = (-1, "IMapper", "Transient"),
        ["AddHostedService"] = (0, "IHostedService", "Singleton"),
        ["AddHttpContextAccessor"] = (-1, "IHttpContextAccessor", "Singleton"),
        ["AddSignalR"] = (-1, "IHubContext<>", "Singleton"),
        ["AddHealthChecks"] = (-1, "HealthCheckService", "Singleton"),
        ["AddValidatorsFromAssembly"] = (-1, "IValidator<>", "Scoped"),
    };

    /// <summary>Cheap syntax test for the dispatcher: `services.AddX(...)`/`builder.Services.AddX(...)`/`serviceCollection.AddX(...)`.</summary>
    public static bool IsServiceExtension(InvocationExpressionSyntax inv, string name) =>
        name.Length > 3 && name.StartsWith("Add", StringComparison.Ordinal) && char.IsUpper(name[3])
        && FactSyntax.Receiver(inv) is { } receiver
        // Identity's builder, wherever it is held (`identity.AddSignInManager<S>()`): Extension binds the receiver
        && (IdentityBuilderServices.ContainsKey(name)
        // `services`, and an extension method's `serviceCollection` (jellyfin's AddJellyfinDbContext); Extension checks the type
        || (FactSyntax.NameContains(receiver, "services") || FactSyntax.NameContains(receiver, "serviceCollection")
            // `services.AddA().AddB()`: a chain that starts on the service collection, through any call returning it
            // (EventSourcing.NetCore's Helpdesk: `.AddCors(...).Configure<JsonOptions>(...).AddSignalR()` lost
            // AddSignalR); Extension checks the receiver's type
            || FactSyntax.Unwrap(receiver) is InvocationExpressionSyntax && FactSyntax.ChainBelow(receiver).Any(c => FactSyntax.NameContains(FactSyntax.Receiver(c), "services")
                   || FactSyntax.NameContains(FactSyntax.Receiver(c), "serviceCollection"))));

    /// <summary>Cheap syntax test for the dispatcher: an Aspire client integration that registers a DbContext,
    /// `builder.AddNpgsqlDbContext&lt;T&gt;("catalogdb")` (not on the service collection: those are Extension's).</summary>
    public static bool IsClientDbContext(InvocationExpressionSyntax inv, string name) =>
        name.Length > "AddDbContext".Length && name.StartsWith("Add", StringComparison.Ordinal)
        && name.EndsWith("DbContext", StringComparison.Ordinal) && FactSyntax.TypeArgs(inv).Count == 1
        && inv.ArgumentList.Arguments.Count > 0 && !FactSyntax.NameContains(FactSyntax.Receiver(inv), "services");

    /// <summary>`builder.AddNpgsqlDbContext&lt;WebhooksContext&gt;("webhooksdb")` (eShop's Identity.API and Webhooks.API,
    /// aspire-samples): Aspire's client integration registers the context, pooled (scoped). A client integration as
    /// AspireFacts.Integration tells it; unbound, one called on a builder (its package is missing).</summary>
    public void ClientDbContext(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (AspireFacts.Integration(_sink.Model, inv, name, AspireFacts.OnBuilder(inv)) is not { } found) return;
        var (confidence, method) = found;
        var context = _types.TypeArguments(inv, method)[0];
        _sink.Add(FactKinds.DiRegistration, from, FactSyntax.Name(inv)!.SpanStart, confidence, context.Name,
            new FactDetail().Add("lifetime", "Scoped").Add("implementation", context.Name).Add("form", "extension")
                .Add("via", name).Add("service_id", context.Id).Add("implementation_id", context.Id));
    }

    /// <summary>What ASP.NET Core Identity's builder calls register (`services.AddIdentityCore&lt;User&gt;()
    /// .AddUserManager&lt;UserManager&gt;().AddSignInManager&lt;SignInManager&gt;()`, Blogifier and Kavita): the service
    /// with the user or role type the chain's AddIdentity* call gives, the implementation its type argument names.</summary>
    private static readonly Dictionary<string, string> IdentityBuilderServices = new(StringComparer.Ordinal)
    {
        ["AddUserManager"] = "UserManager<{user}>", ["AddSignInManager"] = "SignInManager<{user}>",
        ["AddRoleManager"] = "RoleManager<{role}>", ["AddRoles"] = "RoleManager<{0}>",
        ["AddClaimsPrincipalFactory"] = "IUserClaimsPrincipalFactory<{user}>", ["AddUserStore"] = "IUserStore<{user}>",
        ["AddRoleStore"] = "IRoleStore<{role}>", ["AddEntityFrameworkStores"] = "IUserStore<{user}>",
        ["AddUserValidator"] = "IUserValidator<{user}>", ["AddPasswordValidator"] = "IPasswordValidator<{user}>",
    };

    private void IdentityBuilderCall(InvocationExpressionSyntax inv, string name, IMethodSymbol method, string? from)
    {
        if (!IdentityBuilderServices.TryGetValue(name, out var template)) return;
        var typeArgs = _types.TypeArguments(inv, method);
        string? user = null, role = null;
        foreach (var call in ChainThroughLocals(FactSyntax.Receiver(inv)))
        {
            var callName = FactSyntax.NameText(call);
            if (callName is not ("AddIdentity" or "AddIdentityCore" or "AddDefaultIdentity" or "AddRoles")) continue;
            var args = _types.TypeArguments(call, _sink.Model.GetSymbolInfo(call).Symbol as IMethodSymbol);
            if (callName == "AddRoles") role ??= args.Count > 0 ? args[0].Name : null;
            else
            {
                user ??= args.Count > 0 ? args[0].Name : null;
                role ??= args.Count > 1 ? args[1].Name : null;
            }
        }
        var first = typeArgs.Count > 0 ? typeArgs[0] : null;
        // A service whose user or role type the chain does not say is not written with a placeholder at high confidence.
        if ((template.Contains("{user}", StringComparison.Ordinal) && user is null)
            || (template.Contains("{role}", StringComparison.Ordinal) && role is null)) return;
        var service = template.Replace("{user}", user ?? "TUser", StringComparison.Ordinal)
            .Replace("{role}", role ?? "TRole", StringComparison.Ordinal).Replace("{0}", first?.Name ?? "TRole", StringComparison.Ordinal);
        // AddRoles<TRole> and AddEntityFrameworkStores<TContext> name no implementation of their service.
        var implementation = name is "AddRoles" or "AddEntityFrameworkStores" ? null : first;
        _sink.Add(FactKinds.DiRegistration, from, FactSyntax.Name(inv)!.SpanStart, Confidence.High, service,
            new FactDetail().Add("lifetime", "Scoped").Add("implementation", implementation?.Name).Add("form", "extension")
                .Add("via", name).Add("implementation_id", implementation?.Id));
    }

    /// <summary>The calls of a chain, and on through the initializer of a local it starts from (`var identity =
    /// services.AddIdentityCore&lt;User&gt;(); identity.AddUserManager&lt;U&gt;().AddSignInManager&lt;S&gt;();`), a few deep.</summary>
    private IEnumerable<InvocationExpressionSyntax> ChainThroughLocals(ExpressionSyntax? e)
    {
        for (var depth = 0; e is not null && depth < 3; depth++)
        {
            ExpressionSyntax bottom = e;
            foreach (var call in FactSyntax.ChainBelow(e))
            {
                yield return call;
                bottom = FactSyntax.Receiver(call) ?? call;
            }
            bottom = FactSyntax.Unwrap(bottom);
            e = bottom is IdentifierNameSyntax && _sink.Model.GetSymbolInfo(bottom).Symbol is ILocalSymbol local
                ? FactSyntax.LocalInitializer(local)
                : null;
        }
    }

    /// <summary>`services.Configure&lt;T&gt;(section)` or `services.Configure&lt;T&gt;(options => ...)`: IOptions&lt;T&gt;
    /// registered (with what configures it), as AddOptions&lt;T&gt;() is.</summary>
    public void OptionsConfiguration(InvocationExpressionSyntax inv, string? from)
    {
        if (FactSyntax.Receiver(inv) is { } receiver && FactSyntax.NameContains(receiver, "services") && FactSyntax.TypeArgs(inv).Count == 1)
            Extension(inv, "Configure", from);
    }

    private bool IsSystemType(ExpressionSyntax e) =>
        _sink.Model.GetTypeInfo(e).Type is { Name: "Type", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } };

    /// <summary>The one extension method of this name the compilation or a project it references declares, else null.</summary>
    private IMethodSymbol? OwnExtensionOf(string name)
    {
        var compilation = _sink.Model.Compilation;
        return OwnExtensions.GetValue(compilation, _ => new()).GetOrAdd(name, n =>
        {
            var found = compilation.References.OfType<CompilationReference>().Select(r => r.Compilation).Prepend(compilation)
                .SelectMany(c => c.GetSymbolsWithName(n, SymbolFilter.Member)).OfType<IMethodSymbol>()
                .Where(m => m.IsExtensionMethod && m.Parameters.Length > 0).Take(2).ToList();
            return found is [var one] ? one : null;
        });
    }

    // Per compilation (released with it), per name: every unbound `Add*` of an unrestored solution asks.
    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<Compilation,
        System.Collections.Concurrent.ConcurrentDictionary<string, IMethodSymbol?>> OwnExtensions = new();

    /// <summary>An `Add*` extension on an IServiceCollection that is not one of the lifetime calls:
    /// form "extension", the call in `via`; the service and lifetime where KnownExtensions knows them,
    /// `target` when the extension is the solution's own (its body holds the registrations).</summary>
    public void Extension(InvocationExpressionSyntax inv, string name, string? from)
    {
        var receiver = FactSyntax.Receiver(inv)!;
        var receiverType = _sink.Model.GetTypeInfo(receiver).Type;
        var isCollection = receiverType is { TypeKind: not TypeKind.Error }
                           && (receiverType.Name == "IServiceCollection" || receiverType.AllInterfaces.Any(i => i.Name == "IServiceCollection"));
        var info = _sink.Model.GetSymbolInfo(inv);
        var method = (info.Symbol ?? (info.CandidateSymbols.Length > 0 ? info.CandidateSymbols[0] : null)) as IMethodSymbol;
        // Unbound on a receiver whose type did not bind: the solution's own extension of that name says what it extends
        // (Sonarr's `c.AddDatabase()` on DryIoc's IContainer, a package not restored, is no service registration).
        if (method is null && !isCollection && OwnExtensionOf(name) is { } declared)
        {
            if (declared.Parameters[0].Type.Name != "IServiceCollection") return;
            method = declared;
        }
        string confidence;
        if (isCollection && method is not null) confidence = Confidence.High;
        else if (method is null && (isCollection || receiverType is null or { TypeKind: TypeKind.Error })) confidence = Confidence.Medium;
        else if (method is not null && receiverType is null or { TypeKind: TypeKind.Error } && method.Parameters[0].Type.Name == "IServiceCollection")
            confidence = Confidence.Medium;
        else
        {
            if (receiverType is { Name: "IdentityBuilder", ContainingNamespace: var ns } && method is not null
                && ns.ToDisplayString() == "Microsoft.AspNetCore.Identity") IdentityBuilderCall(inv, name, method, from);
            return;
        }

        var typeArgs = _types.TypeArguments(inv, method);
        DiType? service = null;
        string? lifetime = null;
        if (KnownExtensions.TryGetValue(name, out var known))
        {
            lifetime = known.Lifetime;
            var arg = known.TypeArg >= 0 && known.TypeArg < typeArgs.Count ? typeArgs[known.TypeArg] : null;
            if (known.Service is null) service = arg;
            else if (arg is not null && known.Service.Contains("{0}", StringComparison.Ordinal))
                service = new DiType(string.Format(System.Globalization.CultureInfo.InvariantCulture, known.Service, arg.Name), null);
            else if (!known.Service.Contains("{0}", StringComparison.Ordinal)) service = new DiType(known.Service, null);
            else service = new DiType(known.Service.Replace("{0}", ""), null);
            if (name == "AddHttpClient" && service is null) service = new DiType("IHttpClientFactory", null);
        }
        // A typed client, `AddHttpClient<TClient, TImplementation>()`, and `AddDbContext<TContextService,
        // TContextImplementation>()` (Ombi's abstract OmbiContext made as OmbiSqliteContext): the second type argument is
        // what is made.
        var implementation = name == "AddHostedService" && typeArgs.Count > 0 ? typeArgs[0]
            : name is "AddHttpClient" or "AddDbContext" or "AddDbContextPool" && typeArgs.Count > 1 ? typeArgs[1]
            : service?.Id is not null || MethodTypeParameter(service) is not null ? service : null;
        // IHttpClientFactory itself is a singleton; a typed client is transient.
        if (name == "AddHttpClient" && typeArgs.Count == 0) lifetime = "Singleton";
        var target = method?.ReducedFrom ?? method;
        var own = target is not null && target.Locations.Any(l => l.IsInSource) ? _sink.IdOf(target) : null;
        // The solution's own generic extension (fullstackhero's `AddHeroDbContext<CatalogDbContext>()`, whose body
        // registers its TContext): its type arguments, which the query layer puts in for the body's type parameters.
        var ownTypeArgs = own is not null && target!.IsGenericMethod ? typeArgs : [];
        _sink.Add(FactKinds.DiRegistration, from, FactSyntax.Name(inv)!.SpanStart, confidence, service?.Name ?? name,
            new FactDetail().Add("lifetime", lifetime).Add("implementation", implementation?.Name).Add("form", "extension")
                .Add("via", name).Add("target", own).Add("service_id", service?.Id).Add("implementation_id", implementation?.Id)
                .Add("service_type_parameter", MethodTypeParameter(service)).Add("implementation_type_parameter", MethodTypeParameter(implementation))
                .Add("type_args", ownTypeArgs.Select(t => t.Name).ToList())
                .Add("type_arg_ids", ownTypeArgs.All(t => t.Id is not null) ? ownTypeArgs.Select(t => t.Id!).ToList() : null));
    }

    /// <summary>MassTransit's registrations on its configurator, inside `services.AddMassTransit(x => ...)` (Sample-Twitch):
    /// what each registers (service, lifetime), by the call's name. The scans record their call by name with no service:
    /// not form "scan", which the query layer takes for an Autofac assembly scan.</summary>
    private static readonly Dictionary<string, (string? Service, string? Lifetime)> MassTransitRegistrations = new(StringComparer.Ordinal)
    {
        ["AddConsumer"] = ("{0}", "Scoped"),
        ["AddSagaStateMachine"] = ("{0}", "Singleton"),
        ["AddSaga"] = ("{0}", null),
        ["AddActivity"] = ("{0}", "Scoped"),
        ["AddExecuteActivity"] = ("{0}", "Scoped"),
        ["AddFuture"] = ("{0}", null),
        ["AddRequestClient"] = ("IRequestClient<{0}>", "Scoped"),
        ["AddConsumers"] = (null, "Scoped"),
        ["AddConsumersFromNamespaceContaining"] = (null, "Scoped"),
        ["AddActivitiesFromNamespaceContaining"] = (null, "Scoped"),
        ["AddSagaStateMachinesFromNamespaceContaining"] = (null, "Singleton"),
        ["AddSagasFromNamespaceContaining"] = (null, null),
    };

    /// <summary>Cheap syntax test for the dispatcher: a MassTransit registration's name.</summary>
    public static bool IsMassTransitRegistration(string name) => MassTransitRegistrations.ContainsKey(name);

    /// <summary>`x.AddConsumer&lt;SubmitOrderConsumer&gt;()`, `x.AddSagaStateMachine&lt;OrderStateMachine, OrderState&gt;()`,
    /// `x.AddRequestClient&lt;SubmitOrder&gt;()`: a DiRegistration of form "extension", `via` the call. Bound, only a member of
    /// MassTransit's registration configurators (a routing slip builder's `AddActivity("name", uri)` registers nothing);
    /// unbound (the package missing), only inside an `AddMassTransit` lambda or on a receiver typed as a configurator by
    /// its name, at medium confidence.</summary>
    public void MassTransitRegistration(InvocationExpressionSyntax inv, string name, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, ["MassTransit"]);
        var method = symbol as IMethodSymbol;
        string confidence;
        if (binding == Binding.Framework && method is not null)
        {
            var on = (method.ReducedFrom ?? method).IsExtensionMethod ? (method.ReducedFrom ?? method).Parameters[0].Type : method.ContainingType;
            if (on is null || !on.Name.Contains("Configurator", StringComparison.Ordinal)) return;
            confidence = Confidence.High;
        }
        else if (binding == Binding.Unbound && (inv.Ancestors().OfType<InvocationExpressionSyntax>()
                     .Any(a => FactSyntax.NameText(a) is "AddMassTransit" or "AddMassTransitTestHarness")
                 // Sample-Twitch's SampleStartup.ConfigureMassTransit(IServiceCollectionBusConfigurator configurator, ..),
                 // MassTransit.Platform not restored: a receiver typed by a configurator's name.
                 || FactSyntax.Receiver(inv) is { } receiver && _sink.Model.GetTypeInfo(receiver).Type is { } receiverType
                    && (receiverType.Name.EndsWith("BusConfigurator", StringComparison.Ordinal)
                        || receiverType.Name.EndsWith("RegistrationConfigurator", StringComparison.Ordinal))))
            confidence = Confidence.Medium;
        else return;
        var (serviceFormat, lifetime) = MassTransitRegistrations[name];
        var typeArgs = _types.TypeArguments(inv, method);
        var first = typeArgs.Count > 0 ? typeArgs[0] : null;
        DiType? service = serviceFormat is null || first is null ? null
            : serviceFormat == "{0}" ? first
            : new DiType(string.Format(System.Globalization.CultureInfo.InvariantCulture, serviceFormat, first.Name), null);
        var implementation = serviceFormat == "{0}" ? first : null;
        // A scan is said by its call and anchor type (`AddConsumersFromNamespaceContaining<SubmitOrderConsumer>`).
        var key = service?.Name ?? (first is not null ? $"{name}<{first.Name}>" : name);
        _sink.Add(FactKinds.DiRegistration, from, FactSyntax.Name(inv)!.SpanStart, confidence, key,
            new FactDetail().Add("lifetime", lifetime).Add("implementation", implementation?.Name).Add("form", "extension")
                .Add("via", name).Add("service_id", service?.Id).Add("implementation_id", implementation?.Id)
                .Add("container", "masstransit"));
    }

    /// <summary>The position of a method's type parameter a registration names (`AddDbContext&lt;TContext&gt;()` in
    /// `AddHeroDbContext&lt;TContext&gt;`), else null.</summary>
    private static int? MethodTypeParameter(DiType? type) =>
        type?.Symbol is ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Method } parameter ? parameter.Ordinal : null;
}
