using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Configuration keys read through IConfiguration: indexer, GetValue, GetSection (chains and
/// locals holding a section), GetConnectionString, and options binding (Configure&lt;T&gt;, Bind,
/// BindConfiguration). Every access emits its full `a:b:c` key; only constant keys count.
/// </summary>
internal sealed class ConfigFacts
{
    private readonly FactSink _sink;

    public ConfigFacts(FactSink sink)
    {
        _sink = sink;
    }

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        switch (name)
        {
            case "GetSection" or "GetRequiredSection":
                Access(inv, "GetSection", "", type: false, from);
                break;
            case "GetValue":
                Access(inv, "GetValue", "", type: true, from);
                break;
            case "GetConnectionString":
                Access(inv, "GetConnectionString", "ConnectionStrings:", type: false, from);
                break;
            case "Configure":
                Configure(inv, from);
                break;
            case "Bind":
                Bind(inv, from);
                break;
            case "BindConfiguration":
                BindConfiguration(inv, from);
                break;
            case "Get":
                Get(inv, from);
                break;
            case "AddInMemoryCollection":
                InMemory(inv, from);
                break;
            case "IsEnabledAsync" or "IsEnabled":
                FeatureFlag(inv, from);
                break;
            case "GetEnvironmentVariable":
                EnvironmentVariable(inv, from);
                break;
            default:
                if (SourceMethods.Contains(name)) Source(inv, name, from);
                break;
        }
    }

    private static readonly string[] FeatureManagement = ["Microsoft.FeatureManagement"];

    /// <summary>`[FeatureGate("Beta")]` on a controller or action: Microsoft.FeatureManagement reads the flag's key,
    /// `FeatureManagement:Beta` (Practical.CleanArchitecture's `FeatureManagement:FileManagement` was unused).</summary>
    public void FeatureGate(AttributeSyntax attr, string? id)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, attr, FeatureManagement);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence || attr.ArgumentList is null) return;
        foreach (var arg in attr.ArgumentList.Arguments)
        {
            if (arg.NameEquals is not null || FactSyntax.ConstantString(_sink.Model, arg.Expression) is not { } flag) continue;
            _sink.Add(FactKinds.Config, id, attr.SpanStart, confidence, "FeatureManagement:" + flag,
                new FactDetail().Add("pattern", "feature_flag"));
        }
    }

    /// <summary>`featureManager.IsEnabledAsync("Beta")`: the same key, read where the code asks.</summary>
    private void FeatureFlag(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FeatureManagement);
        if (binding == Binding.Unbound && !FactSyntax.NameContains(FactSyntax.Receiver(inv), "feature")) return;
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        if (FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "feature")?.Expression) is not { } flag) return;
        _sink.Add(FactKinds.Config, from, FactSyntax.Name(inv)!.SpanStart, confidence, "FeatureManagement:" + flag,
            new FactDetail().Add("pattern", "feature_flag"));
    }

    /// <summary>`Environment.GetEnvironmentVariable("TESTS_POSTGRES")` (and its `(name, target)` overload) with a constant
    /// name: a read of the key the environment variables provider makes of it (`A__B` is `A:B`), so the variables a
    /// docker-compose service or a launch profile sets are read (BTCPay's 21 `TESTS_*` were defined_but_unused). A
    /// name computed at run time is no key (left out, not dynamic: most are not configuration).</summary>
    private void EnvironmentVariable(InvocationExpressionSyntax inv, string? from)
    {
        // System.Environment's, whichever assembly holds it (System.Runtime, mscorlib, netstandard).
        var symbol = Bound.ForFacts(_sink.Model.GetSymbolInfo(inv));
        if (symbol is not null && symbol.ContainingType?.ToDisplayString() != "System.Environment") return;
        if (symbol is null && FactSyntax.Receiver(inv)?.ToString() is not ("Environment" or "System.Environment")) return;
        if (FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "variable")?.Expression) is not { Length: > 0 } name)
            return;
        var key = name.Replace("__", ":");
        var detail = new FactDetail().Add("pattern", "environment_variable").Add("optional", GuardSection(inv, key));
        if (Coalesced(inv)) detail.Add("default", true);
        _sink.Add(FactKinds.Config, from, FactSyntax.Name(inv)!.SpanStart, symbol is null ? Confidence.Medium : Confidence.High, key, detail);
    }

    /// <summary>Configuration sources whose keys the index cannot see (appsettings*.json files are read by the
    /// Python side, AddInMemoryCollection above).</summary>
    public static readonly string[] SourceMethods =
    [
        "AddXmlFile", "AddIniFile", "AddJsonFile", "AddEnvironmentVariables", "AddCommandLine", "AddUserSecrets",
        "AddKeyPerFile", "AddAzureKeyVault", "AddAzureAppConfiguration", "AddSystemsManager", "AddSecretsManager",
    ];

    private static readonly string[] SourceAssemblies = ["Microsoft.Extensions.Configuration", "Azure.Extensions", "Amazon.Extensions"];

    private void Source(InvocationExpressionSyntax inv, string name, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, SourceAssemblies);
        if (binding == Binding.Other && symbol is IMethodSymbol method
            && (method.ReducedFrom ?? method).Parameters.FirstOrDefault()?.Type.Name is not ("IConfigurationBuilder" or "ConfigurationManager"))
            return;
        if (binding == Binding.Unbound && !LooksLikeConfig(FactSyntax.Receiver(inv))) return;
        var path = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "path")?.Expression);
        // appsettings*.json is read from the files themselves.
        if (name == "AddJsonFile" && path is not null && Path.GetFileName(path).StartsWith("appsettings", StringComparison.OrdinalIgnoreCase)) return;
        _sink.Add(FactKinds.ConfigSource, from, FactSyntax.Name(inv)!.SpanStart, FrameworkApi.ConfidenceOf(binding) ?? Confidence.Medium, name,
            new FactDetail().Add("path", path));
    }

    /// <summary>A syntax filter before binding: `x.Add(one argument)` (or `x.Add&lt;TSource&gt;(configure)`) on a receiver
    /// named like a configuration builder or its `Sources` list. Most `Add` calls are a collection's.</summary>
    public static bool IsSourceAdd(InvocationExpressionSyntax inv, string name) =>
        name == "Add" && inv.ArgumentList.Arguments.Count == 1 && FactSyntax.Receiver(inv) is { } receiver
        && (LooksLikeConfig(receiver) || FactSyntax.NameContains(receiver, "builder") || FactSyntax.NameContains(receiver, "sources"));

    /// <summary>`builder.Add(new EFConfigSource(setup))` (SimplCommerce's settings table), `builder.Sources.Add(source)`
    /// or `builder.Add&lt;TSource&gt;(configure)`: a configuration source of the solution's own, whose keys the index
    /// cannot see, like AddXmlFile's. Bound only: the parameter is Microsoft.Extensions.Configuration's
    /// IConfigurationSource, or the type argument implements it. `path` holds the source's type name.</summary>
    public void CustomSource(InvocationExpressionSyntax inv, string? from)
    {
        if (Bound.ForFacts(_sink.Model.GetSymbolInfo(inv)) is not IMethodSymbol method) return;
        ITypeSymbol? source;
        if (method.TypeArguments.Length == 1 && IsConfigurationSource(method.TypeArguments[0])) source = method.TypeArguments[0];
        else if (method.Parameters.Length == 1 && IsConfigurationSourceInterface(method.Parameters[0].Type))
            source = _sink.Model.GetTypeInfo(inv.ArgumentList.Arguments[0].Expression).Type ?? method.Parameters[0].Type;
        else return;
        _sink.Add(FactKinds.ConfigSource, from, FactSyntax.Name(inv)!.SpanStart, Confidence.High, "Add",
            new FactDetail().Add("path", source.Name));
    }

    private static bool IsConfigurationSourceInterface(ITypeSymbol type) =>
        type is INamedTypeSymbol { Name: "IConfigurationSource", TypeKind: TypeKind.Interface } named
        && named.ContainingNamespace?.ToDisplayString() == "Microsoft.Extensions.Configuration";

    private static bool IsConfigurationSource(ITypeSymbol type) =>
        IsConfigurationSourceInterface(type) || type.AllInterfaces.Any(IsConfigurationSourceInterface);

    /// <summary>`config.AddInMemoryCollection(data)`: defaults defined in code (jellyfin's
    /// `ConfigurationOptions.DefaultConfiguration`). `data` is a dictionary initializer, or a local, field or
    /// property whose declaration holds one (in any file); each constant key is a ConfigDefinition of the
    /// project making the call, anchored at the call.</summary>
    private void InMemory(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Configuration);
        if (binding == Binding.Other || FactSyntax.Arg(inv.ArgumentList, 0, "initialData")?.Expression is not { } data) return;
        var keys = new List<(ExpressionSyntax Key, SemanticModel Model)>();
        if (DictionaryInitializer(data, _sink.Model, 0) is var (initializer, model)) keys.AddRange(InitializerKeys(initializer, model));
        else keys.AddRange(BuiltKeys(data, _sink.Model));
        foreach (var (keyExpression, keyModel) in keys)
        {
            if (FactSyntax.ConstantString(keyModel, keyExpression) is not { } key) continue;
            _sink.Add(FactKinds.ConfigDefinition, from, FactSyntax.Name(inv)!.SpanStart, FrameworkApi.ConfidenceOf(binding)!, key,
                new FactDetail().Add("pattern", "in_memory"));
        }
    }

    private static IEnumerable<(ExpressionSyntax, SemanticModel)> InitializerKeys(InitializerExpressionSyntax initializer, SemanticModel model)
    {
        foreach (var element in initializer.Expressions)
        {
            var keyExpression = element switch
            {
                InitializerExpressionSyntax { Expressions.Count: 2 } pair => pair.Expressions[0],   // { "k", "v" }
                AssignmentExpressionSyntax { Left: ImplicitElementAccessSyntax { ArgumentList.Arguments: [var k] } } => k.Expression, // ["k"] = "v"
                // A list of pairs (Sonarr's `new List<KeyValuePair<string, string>> { new("dataProtectionFolder", ...) }`).
                BaseObjectCreationExpressionSyntax { ArgumentList.Arguments: [var k, _] } => k.Expression,
                InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Create" }, ArgumentList.Arguments: [var k, _] } => k.Expression,
                _ => null,
            };
            if (keyExpression is not null) yield return (keyExpression, model);
        }
    }

    /// <summary>A dictionary a method of the solution builds and returns (jellyfin's `StartupOptions.ConvertToConfig()`:
    /// `var config = new Dictionary&lt;string, string?&gt;(); ... config.Add(AddressOverrideKey, ...); return config;`):
    /// the keys of the returned local's initializer, its `Add(key, value)` calls and `[key] = value` assignments.</summary>
    private static List<(ExpressionSyntax, SemanticModel)> BuiltKeys(ExpressionSyntax data, SemanticModel model)
    {
        var keys = new List<(ExpressionSyntax, SemanticModel)>();
        if (FactSyntax.Unwrap(data) is not InvocationExpressionSyntax call
            || model.GetSymbolInfo(call).Symbol is not IMethodSymbol { DeclaringSyntaxReferences: [var reference] } method
            || reference.GetSyntax() is not MethodDeclarationSyntax { Body: { } body }) return keys;
        var compilation = method.ContainingAssembly is ISourceAssemblySymbol source ? source.Compilation : model.Compilation;
        if (!compilation.ContainsSyntaxTree(body.SyntaxTree)) return keys;
        var bodyModel = body.SyntaxTree == model.SyntaxTree ? model : compilation.GetSemanticModel(body.SyntaxTree);
        var returned = body.DescendantNodes().OfType<ReturnStatementSyntax>()
            .Select(r => r.Expression is IdentifierNameSyntax id ? id.Identifier.ValueText : null).Distinct().ToList();
        if (returned is not [{ } local]) return keys;
        foreach (var node in body.DescendantNodes())
        {
            switch (node)
            {
                case VariableDeclaratorSyntax { Initializer.Value: BaseObjectCreationExpressionSyntax { Initializer: { } init } } v
                    when v.Identifier.ValueText == local:
                    keys.AddRange(InitializerKeys(init, bodyModel));
                    break;
                case InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Expression: IdentifierNameSyntax target, Name.Identifier.ValueText: "Add" or "TryAdd" } } add
                    when target.Identifier.ValueText == local && add.ArgumentList.Arguments.Count == 2:
                    keys.Add((add.ArgumentList.Arguments[0].Expression, bodyModel));
                    break;
                case AssignmentExpressionSyntax { Left: ElementAccessExpressionSyntax { Expression: IdentifierNameSyntax target, ArgumentList.Arguments: [var k] } }
                    when target.Identifier.ValueText == local:
                    keys.Add((k.Expression, bodyModel));
                    break;
            }
        }
        return keys;
    }

    /// <summary>The collection initializer a dictionary expression stands for, with the semantic model of its
    /// tree: `new() { ... }` itself, or the declaration of the local, field or property it names.</summary>
    private (InitializerExpressionSyntax, SemanticModel)? DictionaryInitializer(ExpressionSyntax e, SemanticModel model, int depth)
    {
        e = FactSyntax.Unwrap(e);
        if (e is BaseObjectCreationExpressionSyntax { Initializer: { } created }) return (created, model);
        if (depth > 3 || e is not (IdentifierNameSyntax or MemberAccessExpressionSyntax)) return null;
        var symbol = model.GetSymbolInfo(e).Symbol;
        if (symbol is null or { DeclaringSyntaxReferences.Length: not 1 }) return null;
        var declaration = symbol.DeclaringSyntaxReferences[0].GetSyntax();
        ExpressionSyntax? value = declaration switch
        {
            VariableDeclaratorSyntax { Initializer.Value: var v } => v,
            PropertyDeclarationSyntax { ExpressionBody.Expression: var body } => body,
            PropertyDeclarationSyntax { Initializer.Value: var v } => v,
            _ => null,
        };
        if (value is null) return null;
        // A declaration in another project (jellyfin's defaults live in Emby.Server.Implementations) is bound by
        // that project's compilation.
        var compilation = symbol.ContainingAssembly is ISourceAssemblySymbol source ? source.Compilation : model.Compilation;
        if (!compilation.ContainsSyntaxTree(value.SyntaxTree)) return null;
        var valueModel = value.SyntaxTree == model.SyntaxTree ? model : compilation.GetSemanticModel(value.SyntaxTree);
        return DictionaryInitializer(value, valueModel, depth + 1);
    }

    public void ElementAccess(ElementAccessExpressionSyntax access, string? from)
    {
        if (access.ArgumentList.Arguments.Count != 1) return;
        var arg = access.ArgumentList.Arguments[0].Expression;
        // Dictionaries and arrays are indexed everywhere: bind only string literals, or constants
        // on a receiver that is named like configuration.
        var literal = arg.IsKind(SyntaxKind.StringLiteralExpression);
        // `config[config["Active"]]`: a key read from configuration itself.
        var indirect = FactSyntax.Unwrap(arg) is ElementAccessExpressionSyntax inner && LooksLikeConfig(inner.Expression);
        if (!literal && !indirect && !(arg is IdentifierNameSyntax or MemberAccessExpressionSyntax or InterpolatedStringExpressionSyntax
                                       && LooksLikeConfig(access.Expression))) return;

        var symbol = _sink.Model.GetSymbolInfo(access).Symbol;
        string confidence;
        if (symbol is IPropertySymbol { IsIndexer: true } p && FrameworkApi.IsFrom(p, FrameworkApi.Configuration)) confidence = Confidence.High;
        else if (symbol is null && LooksLikeConfig(access.Expression)) confidence = Confidence.Medium;
        else return;

        var key = FactSyntax.ConstantString(_sink.Model, arg);
        var prefix = SectionPath(access.Expression);
        if (key is null && confidence == Confidence.High && prefix is not null)
            Dynamic(arg, access.ArgumentList.OpenBracketToken.SpanStart, "indexer", Join(prefix, ""), from);
        if (key is null || prefix is null) return;
        if (HandedSection(access.Expression) is { } handed)
        {
            Relative(handed, Join(prefix, key), access.ArgumentList.OpenBracketToken.SpanStart, new FactDetail().Add("pattern", "indexer"), from);
            return;
        }
        var detail = new FactDetail().Add("pattern", "indexer").Add("optional", GuardSection(access, Join(prefix, key)));
        if (Coalesced(access)) detail.Add("default", true);
        _sink.Add(FactKinds.Config, from, access.ArgumentList.OpenBracketToken.SpanStart, confidence, Join(prefix, key), detail);
    }

    private void Access(InvocationExpressionSyntax inv, string pattern, string keyPrefix, bool type, string? from)
    {
        // The non-generic GetValue(typeof(T), "key"[, default]) takes the key second.
        var typeOf = type && FactSyntax.Arg(inv.ArgumentList, 0)?.Expression is { } first
                     && FactSyntax.Unwrap(first) is TypeOfExpressionSyntax t ? t : null;
        var keyArg = FactSyntax.Arg(inv.ArgumentList, typeOf is null ? 0 : 1)?.Expression;
        var key = FactSyntax.ConstantString(_sink.Model, keyArg);
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Configuration);
        var receiver = FactSyntax.Receiver(inv);
        if (binding == Binding.Other || (binding == Binding.Unbound && !LooksLikeConfig(receiver))) return;
        var prefix = SectionPath(receiver);
        if (prefix is null) return;
        if (key is null)
        {
            if (binding == Binding.Framework && keyArg is not null)
                Dynamic(keyArg, FactSyntax.Name(inv)!.SpanStart, pattern, Join(prefix, keyPrefix), from);
            return;
        }
        if (keyPrefix.Length == 0 && HandedSection(receiver) is { } handed)
        {
            Relative(handed, Join(prefix, key), FactSyntax.Name(inv)!.SpanStart, new FactDetail().Add("pattern", pattern), from);
            return;
        }
        var detail = new FactDetail().Add("pattern", pattern);
        if (pattern == "GetSection" && (OnlyChildrenRead(inv) || BoundToSourceOptions(ParenthesizedTop(inv)))) detail.Add("children_only", true);
        if (type) detail.Add("type", typeOf is null ? TypeArgument(inv, symbol as IMethodSymbol) : FactSyntax.TypeName(_sink.Model, typeOf.Type));
        // `GetValue<int>("k", 30)` takes a default after the key; `GetConnectionString("k") ?? "..."` falls back.
        if (Coalesced(inv) || type && inv.ArgumentList.Arguments.Count > (typeOf is null ? 1 : 2)) detail.Add("default", true);
        Emit(inv, binding, Join(prefix, keyPrefix + key), detail, from);
    }

    /// <summary>A method of the solution that reads keys through its string parameters: its flows, as facts of its
    /// own document (ConfigFlow: store/derive.py compares them, so that its callers are extracted again when
    /// they change).</summary>
    public void Flows(MethodDeclarationSyntax method, string? id)
    {
        if (id is null || !method.ParameterList.Parameters.Any(p => IsString(p.Type))) return;
        // An interface method's flows are its implementations', which depend on the project asking (ConfigFlows.Of):
        // not a fact of the interface's own document.
        if (_sink.Model.GetDeclaredSymbol(method) is not { } symbol || ConfigFlows.IsInterfaceMember(symbol)) return;
        foreach (var flow in ConfigFlows.Of(symbol, _sink.Model.Compilation))
            _sink.Add(FactKinds.ConfigFlow, id, method.Identifier.SpanStart, Confidence.High, flow.Template,
                new FactDetail().Add("pattern", flow.Pattern));
    }

    private static bool IsString(TypeSyntax? type) =>
        (type is NullableTypeSyntax nullable ? nullable.ElementType : type) is PredefinedTypeSyntax { Keyword.ValueText: "string" };

    /// <summary>`builder.AddChatCompletionService("chatcompletion")`: a helper of the solution handed constant names
    /// reads the keys its flows make of them (`chatcompletion:Type`, `ConnectionStrings:chatcompletion`), here.</summary>
    public void ThroughHelper(InvocationExpressionSyntax inv, string? from)
    {
        // A literal, or a type's member that may hold one (`Keys.CosmosDbEndpoint`, a const): nothing else can be a key.
        // A lower-case receiver is a value (`order.Name`): not asked of the model (0.5 s of jellyfin's walk).
        if (!inv.ArgumentList.Arguments.Any(a => a.Expression.IsKind(SyntaxKind.StringLiteralExpression)
                || a.Expression is MemberAccessExpressionSyntax { Expression: MemberAccessExpressionSyntax }
                || a.Expression is MemberAccessExpressionSyntax { Expression: IdentifierNameSyntax receiver }
                    && char.IsUpper(receiver.Identifier.ValueText[0]))) return;
        var cpu = Profile.Now(); // a part of the walk, shown apart by bench/index_split.py
        if (_sink.Model.GetSymbolInfo(inv).Symbol is not IMethodSymbol called || called.DeclaringSyntaxReferences.Length == 0)
        {
            Profile.Lap("extract.walk.config_flows", cpu);
            return;
        }
        var flows = ConfigFlows.Of(called, _sink.Model.Compilation);
        Profile.Lap("extract.walk.config_flows", cpu);
        if (flows.Count == 0) return;
        var arguments = ConfigFlows.ArgumentsByParameter(inv, called);
        var values = arguments.ToDictionary(a => a.Key, a => FactSyntax.ConstantString(_sink.Model, a.Value));
        // The section a configuration argument is (`configuration.GetSection("Identity")`: `Identity:`).
        var sections = arguments.ToDictionary(a => a.Key, a => SectionPath(a.Value) is { } path ? path.Length == 0 ? "" : path + ":" : null);
        foreach (var flow in flows)
        {
            if (ConfigFlows.Substitute(flow.Template, values, sections) is not { Length: > 0 } key) continue;
            // The environment variables provider's name for it: `Orders__Queue` is `Orders:Queue`.
            if (flow.Pattern == "environment_variable") key = key.Replace("__", ":");
            _sink.Add(FactKinds.Config, from, FactSyntax.Name(inv)!.SpanStart, Confidence.High, key,
                new FactDetail().Add("pattern", flow.Pattern).Add("through", _sink.IdOf(ConfigFlows.Definition(called)))
                    .Add("optional", GuardSection(inv, key)));
        }
    }

    /// <summary>A key computed at run time (`config[config["Active"]]`, `config[name]`): listed as
    /// dynamic, its expression as the key, so that no agent takes the keys it may read as unused. `prefix`
    /// (the section, `ConnectionStrings:`) and the expression's constant parts make its `template`, the keys it
    /// may read with `*` for what is computed (`GetConnectionString(serviceName)`: `ConnectionStrings:*`;
    /// `config[$"{name}:Type"]`: `*:Type`); a read nothing is known of (`config[key]`) has none.</summary>
    private void Dynamic(ExpressionSyntax keyExpression, int anchor, string pattern, string prefix, string? from)
    {
        var detail = new FactDetail().Add("pattern", pattern).Add("dynamic", true);
        var shape = FactSyntax.ConstantString(_sink.Model, keyExpression, interpolated: true) is { } text
            ? Holes.Replace(text, "*")
            : "*";
        var template = prefix + shape;
        if (template.Any(c => c is not ('*' or ':'))) detail.Add("template", template);
        _sink.Add(FactKinds.Config, from, anchor, Confidence.High, "{" + FactSyntax.Collapse(keyExpression.ToString()) + "}", detail);
    }

    private static readonly Regex Holes = new(@"\{[^{}]*\}", RegexOptions.Compiled); // `{expr}` of ConstantString(interpolated)

    /// <summary>`section.Get&lt;T&gt;()` / `config.Get&lt;T&gt;()` / `section.Get(typeof(T))`: binds T there.</summary>
    private void Get(InvocationExpressionSyntax inv, string? from)
    {
        var typeArgs = FactSyntax.TypeArgs(inv);
        var typeOf = typeArgs.Count == 0 && FactSyntax.Arg(inv.ArgumentList, 0)?.Expression is { } first
                     && FactSyntax.Unwrap(first) is TypeOfExpressionSyntax t ? t.Type : null;
        var typeSyntax = typeArgs.Count == 1 ? typeArgs[0] : typeOf;
        if (typeSyntax is null) return;
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Configuration);
        var receiver = FactSyntax.Receiver(inv);
        if (binding == Binding.Other || (binding == Binding.Unbound && !LooksLikeConfig(receiver))) return;
        var section = SectionPath(receiver);
        if (section is null) return;
        var bound = _sink.Model.GetTypeInfo(typeSyntax).Type;
        var handed = HandedSection(receiver);
        if (section.Length > 0)
            EmitUnder(handed, inv, binding, section, ChildrenOnly(new FactDetail().Add("pattern", "Get").Add("type", FactSyntax.TypeName(_sink.Model, typeSyntax)), bound), from);
        BoundProperties(inv, binding, section, bound, from, handed: handed);
    }

    /// <summary>The keys an options type binds: `section:Property` for each public settable property,
    /// nested classes followed a few levels (the binder's own rule, collections as one key).</summary>
    private void BoundProperties(InvocationExpressionSyntax inv, Binding binding, string section, ITypeSymbol? type, string? from, int depth = 0,
        Handed? handed = null)
    {
        if (type is not INamedTypeSymbol { TypeKind: TypeKind.Class or TypeKind.Struct } named || depth > 3
            || !named.Locations.Any(l => l.IsInSource)) return;
        var typeName = FactSyntax.TypeName(type);
        for (var t = named; t is not null && t.SpecialType != SpecialType.System_Object; t = t.BaseType)
        {
            foreach (var member in t.GetMembers())
            {
                // A get-only property is bound too when it holds a collection or an options object of its own (the
                // binder fills the instance already there).
                if (member is not IPropertySymbol { IsStatic: false, IsIndexer: false, DeclaredAccessibility: Accessibility.Public } property
                    || (property.SetMethod is null && !IsCollection(property.Type) && !IsSourceOptions(property.Type))) continue;
                var key = Join(section, KeyName(property));
                // A property of an options class of its own binds that class's properties, each recorded below: not
                // every key under it (Practical.CleanArchitecture's `Caching:Distributed:Redis:ConnectionString`).
                var nested = property.Type.SpecialType == SpecialType.None && !IsCollection(property.Type) && depth < 3;
                EmitUnder(handed, inv, binding, key, ChildrenOnly(new FactDetail().Add("pattern", "bound_property").Add("type", typeName)
                    .Add("property", _sink.IdOf(property)), nested ? property.Type : null), from);
                if (property.Type.SpecialType == SpecialType.None && !IsCollection(property.Type))
                    BoundProperties(inv, binding, key, property.Type, from, depth + 1, handed);
            }
        }
    }

    /// <summary>The key a property binds: its name, or the one its `[ConfigurationKeyName("user_name")]` gives.</summary>
    private static string KeyName(IPropertySymbol property) =>
        property.GetAttributes().FirstOrDefault(a => a.AttributeClass?.Name == "ConfigurationKeyNameAttribute")
            is { ConstructorArguments: [{ Value: string name }] } ? name : property.Name;

    private static bool IsCollection(ITypeSymbol type) =>
        type is IArrayTypeSymbol || type.AllInterfaces.Any(i => i.Name == "IEnumerable") && type.SpecialType != SpecialType.System_String;

    /// <summary>`services.Configure&lt;T&gt;(config.GetSection("s"))` (also with a name first).</summary>
    private void Configure(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Configuration);
        if (binding == Binding.Other) return;
        // Configure<T>(config) binds T at the root, Configure<T>(config.GetSection("s")) under s;
        // Configure<T>(o => ...) binds nothing.
        var configArg = inv.ArgumentList.Arguments.FirstOrDefault(a => IsConfiguration(a.Expression));
        var section = configArg is null ? null : SectionPath(configArg.Expression);
        if (section is null) return;
        var bound = BoundType(inv, symbol as IMethodSymbol);
        if (section.Length > 0)
            Emit(inv, binding, section, ChildrenOnly(new FactDetail().Add("pattern", "Configure").Add("type", TypeArgument(inv, symbol as IMethodSymbol)), bound), from);
        BoundProperties(inv, binding, section, bound, from);
    }

    /// <summary>An IConfiguration (section, root, manager) by type; by name when it does not bind.</summary>
    private bool IsConfiguration(ExpressionSyntax e)
    {
        var type = _sink.Model.GetTypeInfo(e).Type;
        if (type is null or { TypeKind: TypeKind.Error }) return LooksLikeConfig(e);
        return type.Name == "IConfiguration" || type.AllInterfaces.Any(i => i.Name == "IConfiguration");
    }

    private ITypeSymbol? BoundType(InvocationExpressionSyntax inv, IMethodSymbol? method)
    {
        if (method is { TypeArguments.Length: 1 } && method.TypeArguments[0].TypeKind != TypeKind.Error) return method.TypeArguments[0];
        var args = FactSyntax.TypeArgs(inv);
        return args.Count == 1 ? _sink.Model.GetTypeInfo(args[0]).Type : null;
    }

    /// <summary>`section.Bind(obj)`, `config.Bind("key", obj)`, `optionsBuilder.Bind(section)`.</summary>
    private void Bind(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Configuration);
        if (binding == Binding.Other) return;
        var receiver = FactSyntax.Receiver(inv);
        var args = inv.ArgumentList.Arguments;
        string? key = null;
        ITypeSymbol? type = null;
        var source = receiver; // the configuration the key is under
        if (args.Count == 2 && FactSyntax.ConstantString(_sink.Model, args[0].Expression) is { } named)
        {
            key = SectionPath(receiver) is { } p ? Join(p, named) : null;
            type = TypeOf(args[1].Expression);
        }
        else if (args.Count >= 1 && IsConfiguration(args[0].Expression) && SectionPath(args[0].Expression) is { } fromArg)
        {
            key = fromArg;
            type = OptionsType(receiver);
            source = args[0].Expression;
        }
        else if (args.Count >= 1 && receiver is not null && IsConfiguration(receiver) && SectionPath(receiver) is { } fromReceiver)
        {
            key = fromReceiver;
            type = TypeOf(args[0].Expression);
        }
        if (key is null || args.Count == 0) return;
        if (binding == Binding.Unbound && !LooksLikeConfig(receiver) && !LooksLikeConfig(args[0].Expression)) return;
        var handed = HandedSection(source);
        if (key.Length > 0)
            EmitUnder(handed, inv, binding, key, ChildrenOnly(new FactDetail().Add("pattern", "Bind").Add("type", type is null ? null : FactSyntax.TypeName(type)), type), from);
        BoundProperties(inv, binding, key, type, from, handed: handed);
    }

    /// <summary>A section bound to an options class of the solution reads the keys its properties bind (each
    /// recorded, BoundProperties), not every key under it: grandnode's `ClearPluginShadowDirectoryOnStartup`, in the
    /// Extensions section but no property of ExtensionsConfig, is unused.</summary>
    private static FactDetail ChildrenOnly(FactDetail detail, ITypeSymbol? bound) =>
        IsSourceOptions(bound) ? detail.Add("children_only", true) : detail;

    private static bool IsSourceOptions(ITypeSymbol? type) =>
        type is INamedTypeSymbol { TypeKind: TypeKind.Class or TypeKind.Struct } named && named.Locations.Any(l => l.IsInSource);

    /// <summary>`config.GetSection("s").Bind(options)` / `.Get&lt;T&gt;()`, or the section handed as the argument of
    /// `services.Configure&lt;T&gt;(section)` / `AddOptions&lt;T&gt;().Bind(section)`: the section handed straight to a
    /// binding of an options class of the solution.</summary>
    private bool BoundToSourceOptions(SyntaxNode value)
    {
        if (value.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax handedTo } })
        {
            return IsSourceOptions(FactSyntax.NameText(handedTo) switch
            {
                "Configure" => BoundType(handedTo, Bound.ForFacts(_sink.Model.GetSymbolInfo(handedTo)) as IMethodSymbol),
                "Bind" => OptionsType(FactSyntax.Receiver(handedTo)),
                _ => null,
            });
        }
        if (value.Parent is not MemberAccessExpressionSyntax { Parent: InvocationExpressionSyntax call } access || access.Expression != value)
            return false;
        var args = call.ArgumentList.Arguments;
        var type = access.Name.Identifier.ValueText switch
        {
            "Bind" when args.Count >= 1 => TypeOf(args[^1].Expression),
            "Get" or "GetRequired" when access.Name is GenericNameSyntax { TypeArgumentList.Arguments: [var t] } => _sink.Model.GetTypeInfo(t).Type,
            _ => null,
        };
        return IsSourceOptions(type);
    }

    /// <summary>`services.AddOptions&lt;T&gt;().BindConfiguration("s")`.</summary>
    private void BindConfiguration(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.Configuration);
        if (binding == Binding.Other) return;
        var key = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "configSectionPath")?.Expression);
        if (key is null) return;
        var type = OptionsType(FactSyntax.Receiver(inv));
        Emit(inv, binding, key, ChildrenOnly(new FactDetail().Add("pattern", "Bind").Add("type", type is null ? null : FactSyntax.TypeName(type)), type), from);
        BoundProperties(inv, binding, key, type, from);
    }

    private void Emit(InvocationExpressionSyntax inv, Binding binding, string key, FactDetail detail, string? from)
    {
        var confidence = FrameworkApi.ConfidenceOf(binding)!;
        _sink.Add(FactKinds.Config, from, FactSyntax.Name(inv)!.SpanStart, confidence, key, detail.Add("optional", GuardSection(inv, key)));
    }

    /// <summary>Emit, or under the section the code was handed (`handed`) when it is not null.</summary>
    private void EmitUnder(Handed? handed, InvocationExpressionSyntax inv, Binding binding, string key, FactDetail detail, string? from)
    {
        if (handed is null) Emit(inv, binding, key, detail, from);
        else Relative(handed, key, FactSyntax.Name(inv)!.SpanStart, detail, from);
    }

    /// <summary>A section the code was handed: how the code spells it (`{section}:Key`), and the keys it may be
    /// (`*`, or where Microsoft.FeatureManagement keeps a filter's parameters).</summary>
    private sealed record Handed(string Name, string Template);

    private const string FilterParameters = "FeatureManagement:*:EnabledFor:*:Parameters";

    /// <summary>A section the code was handed (a parameter, field or property typed IConfigurationSection, a local
    /// holding one, or a `GetSection` of one): Blogifier's `StorageMinioProvider(..., IConfigurationSection section)`
    /// reads `section.GetValue&lt;string&gt;("BucketName")`, a key under whatever section its caller chose, not `BucketName`
    /// at the root. So is an IConfiguration property of a Microsoft.FeatureManagement type: a feature filter's
    /// `context.Parameters` (FeatureFilterEvaluationContext) is the `Parameters` section of the flag's filter entry.
    /// Null for anything else (an IConfiguration is read at the root).</summary>
    private Handed? HandedSection(ExpressionSyntax? receiver, int depth = 0)
    {
        if (receiver is null) return null;
        var e = FactSyntax.Unwrap(receiver);
        if (e is InvocationExpressionSyntax sub && FactSyntax.NameText(sub) is "GetSection" or "GetRequiredSection")
            return depth < 6 ? HandedSection(FactSyntax.Receiver(sub), depth + 1) : null;
        if (e is not (IdentifierNameSyntax or MemberAccessExpressionSyntax)) return null;
        var symbol = _sink.Model.GetSymbolInfo(e).Symbol;
        if (depth < 6 && symbol is ILocalSymbol local && FactSyntax.LocalInitializer(local) is { } init)
            return HandedSection(init, depth + 1);
        // A field or property given one constant section in its class is that section (SectionPath); given several,
        // or one not constant, its keys are under whichever it holds.
        if (AssignedSections(symbol, 0) is { Count: > 0 } kept)
            return kept is [{ Length: > 0 }] ? null : new Handed(FactSyntax.Collapse(e.ToString()), "*");
        if (symbol is IPropertySymbol { Type.Name: "IConfiguration" or "IConfigurationSection" } parameters
            && FrameworkApi.IsFrom(parameters.ContainingType, FeatureManagement))
            return new Handed(FactSyntax.Collapse(e.ToString()), FilterParameters);
        var type = symbol switch
        {
            ILocalSymbol l => l.Type,  // a foreach, pattern or out variable (one with an initializer is followed above)
            IParameterSymbol p => p.Type,
            IFieldSymbol f => f.Type,
            IPropertySymbol p => p.Type,
            _ => null,
        };
        return type is INamedTypeSymbol { Name: "IConfigurationSection" } && FrameworkApi.IsFrom(type, FrameworkApi.Configuration)
            ? new Handed(FactSyntax.Collapse(e.ToString()), "*")
            : null;
    }

    /// <summary>A constant key read under a section the code was handed: dynamic (its section is the caller's), with
    /// the template `*:Key`, so a defined `Blogifier:Minio:BucketName` is read dynamically and no root `BucketName` is
    /// called undefined (a feature filter's: `FeatureManagement:*:EnabledFor:*:Parameters:Key`).</summary>
    private void Relative(Handed section, string key, int anchor, FactDetail detail, string? from)
    {
        detail.Add("dynamic", true).Add("template", section.Template + ":" + key);
        _sink.Add(FactKinds.Config, from, anchor, Confidence.High, "{" + section.Name + "}:" + key, detail);
    }

    /// <summary>A section whose value is only the receiver of reads of its children (`GetSection("A")["B"]`,
    /// `.GetValue&lt;T&gt;("B")`, `.GetSection("B")`, `.Exists()`), directly or through a local every use of which is
    /// such (Blogifier's `var section = configuration.GetSection("Blogifier"); section.GetValue&lt;string&gt;("DbProvider")`):
    /// those reads are recorded one by one, so the section read uses no other key under it. A section bound, handed
    /// on or returned uses all of them.</summary>
    private static bool OnlyChildrenRead(InvocationExpressionSyntax section)
    {
        SyntaxNode node = section;
        while (node.Parent is ParenthesizedExpressionSyntax) node = node.Parent;
        if (ReadsAChild(node) && !TestsExistence(node)) return true;
        if (node.Parent is not EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax local }
            || local.Ancestors().FirstOrDefault(a => a is BlockSyntax or CompilationUnitSyntax) is not { } scope) return false;  // top-level statements: the file
        var name = local.Identifier.ValueText;
        var uses = scope.DescendantNodes().OfType<IdentifierNameSyntax>().Where(i => i.Identifier.ValueText == name).ToList();
        // Exists() alone needs some key under it (`if (!tenant.Exists()) throw`): that is a use of them all.
        return uses.Count > 0 && uses.All(ReadsAChild) && !uses.All(TestsExistence);
    }

    private static SyntaxNode ParenthesizedTop(SyntaxNode node)
    {
        while (node.Parent is ParenthesizedExpressionSyntax) node = node.Parent;
        return node;
    }

    private static bool TestsExistence(SyntaxNode value) =>
        value.Parent is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Exists" } access && access.Expression == value;

    private static bool ReadsAChild(SyntaxNode value) => value.Parent switch
    {
        ElementAccessExpressionSyntax access => access.Expression == value,
        MemberAccessExpressionSyntax { Parent: InvocationExpressionSyntax } access when access.Expression == value =>
            access.Name.Identifier.ValueText is "GetValue" or "GetSection" or "GetRequiredSection" or "Exists" or "GetConnectionString",
        _ => false,
    };

    /// <summary>A read whose absence the code covers with a value of its own: the left of `??`, unless the chain of
    /// `??` ends in a throw (`GetConnectionString("Default") ?? throw new InvalidOperationException(..)` requires it).</summary>
    private static bool Coalesced(ExpressionSyntax read)
    {
        SyntaxNode node = read;
        while (node.Parent is ParenthesizedExpressionSyntax) node = node.Parent;
        if (node.Parent is not BinaryExpressionSyntax coalesce || !coalesce.IsKind(SyntaxKind.CoalesceExpression) || coalesce.Left != node)
            return false;
        var fallback = FactSyntax.Unwrap(coalesce.Right);
        while (fallback is BinaryExpressionSyntax more && more.IsKind(SyntaxKind.CoalesceExpression)) fallback = FactSyntax.Unwrap(more.Right);
        return fallback is not ThrowExpressionSyntax;
    }

    /// <summary>The section `key` is under when the enclosing method returns early unless that section exists
    /// (`if (!identitySection.Exists()) return services;` before `node`, eShop's AddDefaultAuthentication): a read
    /// there happens only where the section is configured (the query layer then does not call it undefined
    /// elsewhere). Null when there is no such guard.</summary>
    private string? GuardSection(SyntaxNode node, string key)
    {
        // Where a section's Exists() held: `s.Exists() ? <read> : ...` (eShop's AddDefaultOpenApi), `if (s.Exists()) <read>`.
        for (SyntaxNode? up = node; up is not null and not MemberDeclarationSyntax and not CompilationUnitSyntax; up = up.Parent)
        {
            var test = up.Parent switch
            {
                ConditionalExpressionSyntax c when c.WhenTrue == up => c.Condition,
                IfStatementSyntax i when i.Statement == up => i.Condition,
                _ => null,
            };
            if (test is not null && FactSyntax.Unwrap(test) is InvocationExpressionSyntax held && ExistsOf(held) is { } section
                && Under(key, section))
                return section;
            // The same read tested for presence around it: `if (config["K"] != null) { bool.Parse(config["K"]!) }`
            // (eShopOnWeb's UseOnlyInMemoryDatabase), on the branch where it is present.
            if (test is not null && up.Parent is IfStatementSyntax or ConditionalExpressionSyntax && TestsPresenceOf(test, node))
                return key;
        }
        // A read whose presence is tested (`!string.IsNullOrWhiteSpace(config.GetConnectionString("ai"))`): the code goes on without it.
        // (One that throws requires the key here: a section guard below may still make it optional.)
        if (PresenceTest(node) is { } direct && !Throws(direct)) return key;
        // The statements the read runs among: a method's or local function's body, or the top-level statements.
        var statements = node.Ancestors().FirstOrDefault(a => a is BaseMethodDeclarationSyntax or LocalFunctionStatementSyntax
                                                              or AccessorDeclarationSyntax or GlobalStatementSyntax) switch
        {
            BaseMethodDeclarationSyntax { Body: { } b } => b.Statements.ToList(),
            LocalFunctionStatementSyntax { Body: { } b } => b.Statements.ToList(),
            AccessorDeclarationSyntax { Body: { } b } => b.Statements.ToList(),
            GlobalStatementSyntax { Parent: CompilationUnitSyntax unit } => unit.Members.OfType<GlobalStatementSyntax>().Select(g => g.Statement).ToList(),
            _ => null,
        };
        if (statements is null) return null;
        // The section's own read, tested for existence to leave or to branch: `GetSection("Identity").Exists()` itself,
        // or a local holding it (`var s = config.GetSection("Identity"); if (!s.Exists()) return;`, `s.Exists() ? .. : ..`).
        // A test that throws when it is missing makes it required: not optional.
        if (node is InvocationExpressionSyntax read && FactSyntax.NameText(read) is "GetSection")
        {
            if (read.Parent is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Exists", Parent: InvocationExpressionSyntax inline }
                && GuardsOrBranches(inline))
                return key;
            if (read.Parent is EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax local }
                && statements.SelectMany(st => st.DescendantNodesAndSelf()).OfType<InvocationExpressionSyntax>().Any(i =>
                    FactSyntax.NameText(i) == "Exists" && GuardsOrBranches(i)
                    && FactSyntax.Receiver(i) is IdentifierNameSyntax holder && holder.Identifier.ValueText == local.Identifier.ValueText))
                return key;
        }
        // A local holding the read, tested for presence before use (`var cs = ..; if (cs is null) return;`): its first test.
        if (HeldBy(node) is { } holder)
        {
            var test = statements.SelectMany(st => st.DescendantNodes()).OfType<IdentifierNameSyntax>()
                .Where(id => id.SpanStart > node.Span.End && id.Identifier.ValueText == holder)
                .Select(PresenceTest).FirstOrDefault(t => t is not null);
            if (test is not null && !Throws(test)) return key;
        }
        // After `if (!s.Exists()) return;`: the reads under s (not those inside that `if`, which run when s is missing).
        foreach (var statement in statements)
        {
            if (statement.SpanStart >= node.SpanStart || statement.Span.Contains(node.Span)) break;
            if (statement is IfStatementSyntax { Condition: PrefixUnaryExpressionSyntax { Operand: var operand } }
                && FactSyntax.Unwrap(operand) is InvocationExpressionSyntax exists && IsReturnUnless(exists)
                && ExistsOf(exists) is { } section && key.StartsWith(section + ":", StringComparison.OrdinalIgnoreCase))
                return section;
        }
        return null;
    }

    /// <summary>`test` holds a presence test of a read spelled as `read` is, whose true branch means present (`!= null`,
    /// `is not null`, `is {..}`, `!string.IsNullOrEmpty(..)`), and nothing in it throws.</summary>
    private static bool TestsPresenceOf(ExpressionSyntax test, SyntaxNode read)
    {
        var spelled = read.ToString();
        foreach (var candidate in test.DescendantNodesAndSelf().OfType<ExpressionSyntax>())
        {
            if (candidate.ToString() != spelled || PresenceTest(candidate) is not { } presence || Throws(presence)) continue;
            var present = presence switch
            {
                BinaryExpressionSyntax b => b.IsKind(SyntaxKind.NotEqualsExpression),
                IsPatternExpressionSyntax { Pattern: UnaryPatternSyntax { RawKind: (int)SyntaxKind.NotPattern } } => true,
                IsPatternExpressionSyntax { Pattern: RecursivePatternSyntax or DeclarationPatternSyntax or TypePatternSyntax } => true,
                InvocationExpressionSyntax => presence.Parent is PrefixUnaryExpressionSyntax not && not.IsKind(SyntaxKind.LogicalNotExpression),
                _ => false,
            };
            if (present) return true;
        }
        return false;
    }

    /// <summary>The test of a value's presence it stands in: `string.IsNullOrEmpty(v)` / `IsNullOrWhiteSpace(v)` (or as an
    /// extension, `v.IsNullOrEmpty()`), `v is null` and any other pattern, `v == null`, `v != null`. Null otherwise.</summary>
    private static ExpressionSyntax? PresenceTest(SyntaxNode value)
    {
        while (value.Parent is ParenthesizedExpressionSyntax or PostfixUnaryExpressionSyntax) value = value.Parent;
        return value.Parent switch
        {
            ArgumentSyntax { Parent: ArgumentListSyntax { Arguments.Count: 1, Parent: InvocationExpressionSyntax call } }
                when FactSyntax.NameText(call) is "IsNullOrEmpty" or "IsNullOrWhiteSpace" => call,
            MemberAccessExpressionSyntax { Name.Identifier.ValueText: "IsNullOrEmpty" or "IsNullOrWhiteSpace", Parent: InvocationExpressionSyntax call }
                => call,
            IsPatternExpressionSyntax pattern when pattern.Expression == value => pattern,
            BinaryExpressionSyntax compare when compare.Kind() is SyntaxKind.EqualsExpression or SyntaxKind.NotEqualsExpression
                && (compare.Left == value ? compare.Right : compare.Left).IsKind(SyntaxKind.NullLiteralExpression) => compare,
            _ => null,
        };
    }

    /// <summary>A presence test one of whose branches throws (`if (string.IsNullOrEmpty(k)) throw ..`, `k is null ? throw
    /// .. : k`): the code requires the value.</summary>
    private static bool Throws(ExpressionSyntax test)
    {
        SyntaxNode node = test;
        while (node.Parent is ParenthesizedExpressionSyntax
               || node.Parent is PrefixUnaryExpressionSyntax not && not.IsKind(SyntaxKind.LogicalNotExpression)
               || node.Parent is BinaryExpressionSyntax logical && logical.Kind() is SyntaxKind.LogicalAndExpression or SyntaxKind.LogicalOrExpression)
            node = node.Parent;
        static bool IsThrow(SyntaxNode? branch) =>
            branch is ThrowStatementSyntax or ThrowExpressionSyntax or BlockSyntax { Statements: [.., ThrowStatementSyntax] };
        return node.Parent switch
        {
            IfStatementSyntax i when i.Condition == node => IsThrow(i.Statement) || IsThrow(i.Else?.Statement),
            ConditionalExpressionSyntax c when c.Condition == node => IsThrow(c.WhenTrue) || IsThrow(c.WhenFalse),
            _ => false,
        };
    }

    /// <summary>The local a read initializes (`var cs = config.GetConnectionString("ai");`), else null.</summary>
    private static string? HeldBy(SyntaxNode read)
    {
        while (read.Parent is ParenthesizedExpressionSyntax) read = read.Parent;
        return read.Parent is EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax local } ? local.Identifier.ValueText : null;
    }

    /// <summary>An `Exists()` test that returns when the section is missing, or branches on it (`s.Exists() ? ..`,
    /// `if (s.Exists())`): the code goes on without the section. Not a test that throws.</summary>
    private static bool GuardsOrBranches(InvocationExpressionSyntax exists)
    {
        if (IsReturnUnless(exists)) return true;
        SyntaxNode node = exists;
        while (node.Parent is ParenthesizedExpressionSyntax) node = node.Parent;
        return node.Parent is ConditionalExpressionSyntax c && c.Condition == node || node.Parent is IfStatementSyntax i && i.Condition == node;
    }

    /// <summary>The section `s` of an `s.Exists()` call (null for another call or an unknown section).</summary>
    private string? ExistsOf(InvocationExpressionSyntax call) =>
        FactSyntax.NameText(call) == "Exists" && SectionPath(FactSyntax.Receiver(call)) is { Length: > 0 } section ? section : null;

    private static bool Under(string key, string section) =>
        string.Equals(key, section, StringComparison.OrdinalIgnoreCase) || key.StartsWith(section + ":", StringComparison.OrdinalIgnoreCase);

    /// <summary>`if (!test) return ...;` (or a block ending in a return) around the `Exists()` call `test`.</summary>
    private static bool IsReturnUnless(InvocationExpressionSyntax test)
    {
        SyntaxNode node = test;
        while (node.Parent is ParenthesizedExpressionSyntax) node = node.Parent;
        return node.Parent is PrefixUnaryExpressionSyntax not && not.IsKind(SyntaxKind.LogicalNotExpression)
               && not.Parent is IfStatementSyntax guard && guard.Condition == not
               && guard.Statement is ReturnStatementSyntax or BlockSyntax { Statements: [.., ReturnStatementSyntax] };
    }

    /// <summary>The section path an expression stands for: "" for a root (or unknown) configuration,
    /// `a:b` for `x.GetSection("a").GetSection("b")` or a local holding it; null when a part is not constant.</summary>
    private string? SectionPath(ExpressionSyntax? e, int depth = 0)
    {
        if (e is null) return "";
        e = FactSyntax.Unwrap(e);
        if (e is InvocationExpressionSyntax inv && FactSyntax.NameText(inv) is "GetSection" or "GetRequiredSection")
        {
            var part = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "key")?.Expression);
            if (part is null) return null;
            var parent = SectionPath(FactSyntax.Receiver(inv), depth);
            return parent is null ? null : Join(parent, part);
        }
        if (depth < 4 && e is IdentifierNameSyntax && _sink.Model.GetSymbolInfo(e).Symbol is ILocalSymbol local
            && FactSyntax.LocalInitializer(local) is { } init)
            return SectionPath(init, depth + 1);
        if (e is IdentifierNameSyntax or MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax }
            && AssignedSections(_sink.Model.GetSymbolInfo(e).Symbol, depth) is [{ Length: > 0 } only])
            return only;
        return "";
    }

    /// <summary>The distinct sections a field or property typed IConfiguration(Section) is given in this document: its
    /// initializer (or expression body) and each `_apm = ...` assignment in its class. Exceptionless's ApmConfig keeps
    /// `config.GetSection("Apm")` in an IConfiguration field and reads `_apm.GetValue("ServiceName")` elsewhere:
    /// `Apm:ServiceName`, not a root key. A section not constant is null. Empty when it is given anything but a
    /// section (the root, a parameter, `null!`): read as before.</summary>
    private List<string?> AssignedSections(ISymbol? member, int depth)
    {
        var found = new List<string?>();
        if (depth >= 4 || member?.ContainingType is null) return found;
        var type = member switch { IFieldSymbol f => f.Type, IPropertySymbol { IsIndexer: false } p => p.Type, _ => null };
        if (type is not INamedTypeSymbol { Name: "IConfiguration" or "IConfigurationSection" }) return found;
        var tree = _sink.Model.SyntaxTree;
        var values = new List<ExpressionSyntax>();
        foreach (var reference in member.DeclaringSyntaxReferences.Where(r => r.SyntaxTree == tree))
        {
            if (reference.GetSyntax() is VariableDeclaratorSyntax { Initializer.Value: var field }) values.Add(field);
            else if (reference.GetSyntax() is PropertyDeclarationSyntax property
                     && (property.Initializer?.Value ?? property.ExpressionBody?.Expression) is { } value) values.Add(value);
        }
        foreach (var declaration in member.ContainingType.DeclaringSyntaxReferences.Where(r => r.SyntaxTree == tree))
        {
            foreach (var assignment in declaration.GetSyntax().DescendantNodes().OfType<AssignmentExpressionSyntax>())
            {
                var left = assignment.Left is MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax } m ? m.Name : assignment.Left;
                if (assignment.IsKind(SyntaxKind.SimpleAssignmentExpression) && left is IdentifierNameSyntax name
                    && name.Identifier.ValueText == member.Name
                    && SymbolEqualityComparer.Default.Equals(_sink.Model.GetSymbolInfo(left).Symbol, member))
                    values.Add(assignment.Right);
            }
        }
        foreach (var value in values)
        {
            var path = SectionPath(value, depth + 1);
            if (path is { Length: 0 }) return [];
            if (!found.Contains(path)) found.Add(path);
        }
        return found;
    }

    private string? TypeArgument(InvocationExpressionSyntax inv, IMethodSymbol? method)
    {
        if (method is { TypeArguments.Length: 1 } && method.TypeArguments[0].TypeKind != TypeKind.Error)
            return FactSyntax.TypeName(method.TypeArguments[0]);
        var args = FactSyntax.TypeArgs(inv);
        return args.Count == 1 ? FactSyntax.TypeName(_sink.Model, args[0]) : null;
    }

    /// <summary>T of an OptionsBuilder&lt;T&gt; receiver, or of `AddOptions&lt;T&gt;()` in its chain.</summary>
    private ITypeSymbol? OptionsType(ExpressionSyntax? receiver)
    {
        if (receiver is null) return null;
        if (_sink.Model.GetTypeInfo(receiver).Type is INamedTypeSymbol { Name: "OptionsBuilder", TypeArguments.Length: 1 } builder)
            return builder.TypeArguments[0];
        foreach (var call in FactSyntax.ChainBelow(receiver))
        {
            if (FactSyntax.NameText(call) == "AddOptions" && FactSyntax.TypeArgs(call) is { Count: 1 } args)
                return _sink.Model.GetTypeInfo(args[0]).Type;
        }
        return null;
    }

    private ITypeSymbol? TypeOf(ExpressionSyntax e) =>
        _sink.Model.GetTypeInfo(e).Type is { TypeKind: not TypeKind.Error } t ? t : null;

    private static string Join(string prefix, string key) => prefix.Length == 0 ? key : prefix + ":" + key;

    private static bool LooksLikeConfig(ExpressionSyntax? e)
    {
        if (e is null) return false;
        if (FactSyntax.Unwrap(e) is InvocationExpressionSyntax inv && FactSyntax.NameText(inv) is "GetSection" or "GetRequiredSection") return true;
        return FactSyntax.NameContains(e, "config") || FactSyntax.NameContains(e, "section");
    }
}
