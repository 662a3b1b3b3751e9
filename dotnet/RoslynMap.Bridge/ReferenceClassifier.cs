using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMap.Bridge.Facts;

namespace RoslynMap.Bridge;

/// <summary>
/// Classifies names, object creations and constructor initializers of one document into
/// reference rows (Call, Read, Write, Instantiate, TypeRef, Implementation; ImplicitCall through ImplicitCalls). Binding comes from
/// the document's SemanticModel only.
/// </summary>
internal sealed class ReferenceClassifier
{
    private const int MaxReceiverLength = 200;
    private readonly DocumentContext _ctx;
    // The name classified last and what it bound to: a member access's receiver is visited just before the member's
    // name, so `policy` in `policy.Execute()` is this one when Execute is classified (ReceiverTypeOf).
    private SimpleNameSyntax? _lastName;
    private ISymbol? _lastSymbol;

    public ReferenceClassifier(DocumentContext ctx)
    {
        _ctx = ctx;
    }

    public void Name(SimpleNameSyntax name, string? from)
    {
        var expr = ExpressionFor(name);
        if (expr.Parent is ObjectCreationExpressionSyntax oc && oc.Type == expr) return; // see ObjectCreation
        if (name.Parent is AliasQualifiedNameSyntax aq && aq.Alias == name) return;      // global::
        if (name.Parent is NameEqualsSyntax { Parent: UsingDirectiveSyntax }) return;    // alias being declared

        var (symbol, candidates) = (InvokedMethod(name, expr) ?? AttributeConstructor(expr) ?? AttributeNamedArgument(name)
                                  ?? SignatureTypes.Of(name, _ctx.Model)) is { } known
            ? (known, System.Collections.Immutable.ImmutableArray<ISymbol>.Empty)
            : Bound.Of(_ctx.Model.GetSymbolInfo(name));
        if (symbol is IErrorTypeSymbol error)
        {
            // An ambiguous or inaccessible type name: the compiler chose none of its candidates.
            candidates = error.CandidateSymbols;
            symbol = null;
        }
        if (symbol is IAliasSymbol alias) symbol = alias.Target;
        (_lastName, _lastSymbol) = (name, symbol);

        if (symbol is null)
        {
            // A call the name alone does not bind may still name candidates on the invocation.
            if (candidates.IsDefaultOrEmpty && expr.Parent is InvocationExpressionSyntax call && call.Expression == expr)
                candidates = _ctx.Model.GetSymbolInfo(call).CandidateSymbols;
            // Candidates the compiler rejected (ambiguous, inaccessible, no applicable overload):
            // unresolved, never passed off as a call to one of them.
            if (!candidates.IsDefaultOrEmpty) AddUnresolved(name.Identifier, expr, from, UnresolvedKind(expr), candidates);
            else if (IsUnresolved(name, expr) || IsUnboundCall(name, expr)) AddUnresolved(name.Identifier, expr, from, UnresolvedKind(expr));
            return;
        }
        // `var`, `nint` and `nuint` bind to the type they stand for: not a reference.
        if (name is IdentifierNameSyntax { IsVar: true } or IdentifierNameSyntax { IsNint: true } or IdentifierNameSyntax { IsNuint: true }
            && symbol.Name != name.Identifier.ValueText) return;
        if (!SymbolFacts.IsReferenceable(symbol)) return;

        var target = SymbolFacts.Definition(symbol);
        string kind;
        switch (target)
        {
            case INamedTypeSymbol type:
                kind = IsBaseListEntry(expr) && type.TypeKind == TypeKind.Interface ? RefKinds.Implementation : RefKinds.TypeRef;
                break;
            case IMethodSymbol method when expr.Parent is AttributeSyntax:
                // An attribute name binds to the attribute's constructor; record it as the type.
                target = method.ContainingType.OriginalDefinition;
                kind = RefKinds.TypeRef;
                break;
            case IMethodSymbol:
                kind = IsInvoked(expr) ? RefKinds.Call : RefKinds.Read; // uninvoked: a method group
                if (kind == RefKinds.Call) TypeArgumentsOfCall(symbol, target, name, from);
                break;
            // `[AutomaticRetry(Attempts = 0)]` (Hangfire): the setter runs when something reads the attribute by
            // reflection, not when the member it decorates runs, so no call edge (exceptions, traces, callers).
            case IPropertySymbol or IFieldSymbol when name.Parent is NameEqualsSyntax { Parent: AttributeArgumentSyntax }:
                kind = RefKinds.AttributeArgument;
                break;
            default:
                kind = IsWritten(expr) ? RefKinds.Write : RefKinds.Read;
                break;
        }
        if (kind is RefKinds.Call or RefKinds.Read or RefKinds.Write && InMockSetup(expr)) kind = RefKinds.MockSetup;
        if (kind is RefKinds.Call or RefKinds.Read or RefKinds.Write) ReceiverTypeOf(target, expr, name, from);
        Add(target, name.Identifier, from, kind, Receiver(expr));
    }

    /// <summary>A member a class inherits, called on a receiver whose static type is that class (`timeout.Execute()`,
    /// `timeout` a TimeoutPolicy, Execute declared in its base Policy): a `ReceiverType` fact at the member's name, key
    /// the receiver's type. The object is one of that class's line, so the overrides Execute runs on `this` are that
    /// line's, never a sibling's (graph_callers, query/dispatch.py). Only an instance member of a source class others
    /// may derive from and whose line declares something to override, on a receiver typed as another source class; the receiver's type comes from the symbol its last
    /// name bound to (no model call), else from the model. Likewise a member of an interface (of the solution or a
    /// package) called on a receiver typed as another interface of the solution deriving from it
    /// (modular-monolith-with-ddd's `_decorated.Handle(command)` on a module's own `ICommandHandler&lt;T, R&gt;`, Handle
    /// declared in MediatR's IRequestHandler): only that interface's implementers run it, not every module's.</summary>
    private void ReceiverTypeOf(ISymbol target, ExpressionSyntax expr, SimpleNameSyntax name, string? from)
    {
        if (!_ctx.Facts || target.IsStatic || target is not (IMethodSymbol or IPropertySymbol or IEventSymbol)
            || target.ContainingType is not { } declaring) return;
        var onInterface = declaring.TypeKind == TypeKind.Interface;
        if (!onInterface && (declaring is not { TypeKind: TypeKind.Class, IsSealed: false, IsStatic: false }
            || !declaring.Locations.Any(l => l.IsInSource) || !Overridable(declaring))) return;
        var receiver = expr switch
        {
            MemberAccessExpressionSyntax ma => ma.Expression,
            MemberBindingExpressionSyntax mb => ConditionalReceiver(mb),
            _ => null,
        };
        if (receiver is null or ThisExpressionSyntax or BaseExpressionSyntax) return;
        var last = receiver switch
        {
            SimpleNameSyntax n => n,
            MemberAccessExpressionSyntax { Name: var n } => n,
            _ => null,
        };
        var cheap = last is not null && ReferenceEquals(last, _lastName);
        // Interface members are called everywhere (IDisposable, IEnumerable, ILogger...): their receiver's type only
        // from the name it bound to, or a plain identifier (a parameter or a local, `decorated.Handle(c)`), never a
        // model call for a computed receiver.
        if (!cheap && onInterface && receiver is not IdentifierNameSyntax) return;
        var type = cheap
            ? _lastSymbol switch
            {
                ILocalSymbol l => l.Type,
                IParameterSymbol p => p.Type,
                IFieldSymbol f => f.Type,
                IPropertySymbol p => p.Type,
                IEventSymbol e => e.Type,
                _ => null,
            }
            : _ctx.Model.GetTypeInfo(receiver).Type;
        if (type is not INamedTypeSymbol named || named.TypeKind != (onInterface ? TypeKind.Interface : TypeKind.Class)) return;
        var own = named.OriginalDefinition;
        if (SymbolEqualityComparer.Default.Equals(own, declaring.OriginalDefinition) || !own.Locations.Any(l => l.IsInSource)
            || _ctx.IdOf(own) is not { } id) return;
        var (line, col) = _ctx.Position(name.Identifier.SpanStart);
        _ctx.Result.Facts.Add(new FactRow("ReceiverType", from, _ctx.ProjectIndex, _ctx.File, line, col, "high", id, "{}"));
    }

    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<INamedTypeSymbol, object> OverridableTypes = new();
    private static readonly object Yes = new(), No = new();

    /// <summary>Whether a source class or one of its source bases declares a virtual, abstract or override member: only
    /// then can a member reached on `this` run an override (a DDD entity's `order.Id`, declared in a plain BaseEntity,
    /// needs no ReceiverType fact). Cached per type.</summary>
    private static bool Overridable(INamedTypeSymbol declaring) =>
        OverridableTypes.GetValue(declaring.OriginalDefinition, type =>
        {
            for (var t = type; t is not null && t.Locations.Any(l => l.IsInSource); t = t.BaseType)
            {
                if (t.GetMembers().Any(m => m.IsVirtual || m.IsAbstract || m.IsOverride)) return Yes;
            }
            return No;
        }) == Yes;

    /// <summary>The expression before the `?.` a member binding (`.Execute` in `policy?.Execute()`) applies to.</summary>
    private static ExpressionSyntax? ConditionalReceiver(MemberBindingExpressionSyntax binding)
    {
        for (var n = binding.Parent; n is not null; n = n.Parent)
        {
            if (n is ConditionalAccessExpressionSyntax ca && ca.WhenNotNull.Span.Contains(binding.Span)) return ca.Expression;
        }
        return null;
    }

    // Moq's Setup*/Verify*/It.Is and FakeItEasy's A.CallTo take an expression tree naming the member to fake.
    private static readonly HashSet<string> MockCalls = new(StringComparer.Ordinal)
    {
        "Setup", "SetupGet", "SetupSet", "SetupSequence", "SetupProperty", "Verify", "VerifyGet", "VerifySet", "CallTo",
    };

    /// <summary>A member named inside a lambda handed to a mock's Setup/Verify (`mock.Setup(x => x.GetAsync(1))`) as
    /// an expression tree: the method is not run there, so the reference is no call (graph_callers leaves it out).</summary>
    private bool InMockSetup(ExpressionSyntax expr)
    {
        for (SyntaxNode? node = expr.Parent; node is not null and not MemberDeclarationSyntax; node = node.Parent)
        {
            if (node is not LambdaExpressionSyntax lambda) continue;
            if (lambda.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax call } }
                && FactSyntax.NameText(call) is { } callName && MockCalls.Contains(callName))
            {
                var converted = _ctx.Model.GetTypeInfo(lambda).ConvertedType;
                return converted is null or { TypeKind: TypeKind.Error }
                    || converted is { Name: "Expression", ContainingNamespace: { } ns } && ns.ToDisplayString() == "System.Linq.Expressions";
            }
        }
        return false;
    }

    /// <summary>The method a call by name binds to, asked of the invocation: the same symbol the name
    /// gives, without the member group the semantic model also builds for a method-group name (every
    /// overload and extension method in scope, never used here). Null when the call did not bind to a
    /// method of that name (a delegate or event invoked, nameof, failed overload resolution): the name is
    /// then asked itself.</summary>
    private IMethodSymbol? InvokedMethod(SimpleNameSyntax name, ExpressionSyntax expr)
    {
        if (expr.Parent is not InvocationExpressionSyntax invocation || invocation.Expression != expr) return null;
        return _ctx.Model.GetSymbolInfo(invocation).Symbol is IMethodSymbol
        {
            MethodKind: not (MethodKind.DelegateInvoke or MethodKind.FunctionPointerSignature),
        } method && method.Name == name.Identifier.ValueText ? method : null;
    }

    /// <summary>The constructor an attribute's name binds to, read from the attributes of the symbol it is
    /// applied to: the compiler bound those with the declaration, where asking the model about the name
    /// builds a semantic model for the attribute and binds it again (Newtonsoft.Json's tests carry thousands).
    /// Null when the attribute does not bind to a constructor or is not found there (the model is then asked).</summary>
    private IMethodSymbol? AttributeConstructor(ExpressionSyntax expr) =>
        expr.Parent is AttributeSyntax attr ? AppliedAttribute(attr)?.AttributeConstructor : null;

    /// <summary>The bound attribute `attr` stands for, from the attributes of the symbol it applies to (null when
    /// that symbol is not found without binding: the model is asked then).</summary>
    private AttributeData? AppliedAttribute(AttributeSyntax attr)
    {
        if (attr.Parent is not AttributeListSyntax { Target: null, Parent: { } owner }) return null;
        var declared = owner switch
        {
            BaseMethodDeclarationSyntax or BaseTypeDeclarationSyntax or DelegateDeclarationSyntax or PropertyDeclarationSyntax
                or EventDeclarationSyntax or IndexerDeclarationSyntax or ParameterSyntax or TypeParameterSyntax
                or LocalFunctionStatementSyntax or EnumMemberDeclarationSyntax or AccessorDeclarationSyntax
                => _ctx.Model.GetDeclaredSymbol(owner),
            // A field's attributes apply to each of its variables: the first one carries them.
            BaseFieldDeclarationSyntax { Declaration.Variables: [var first, ..] } => _ctx.Model.GetDeclaredSymbol(first),
            _ => null,
        };
        if (declared is null) return null;
        foreach (var data in declared.GetAttributes())
        {
            if (data.ApplicationSyntaxReference is { } at && at.Span == attr.Span && at.SyntaxTree == attr.SyntaxTree)
                return data;
        }
        return null;
    }

    /// <summary>`[JsonProperty(Order = 1)]`: the property or field a named attribute argument sets, looked up on the
    /// bound attribute's class as the compiler does (the most derived member of that name), without building a
    /// semantic model for the attribute. Null when the attribute did not bind or the member is not one to set.</summary>
    private ISymbol? AttributeNamedArgument(SimpleNameSyntax name)
    {
        if (name.Parent is not NameEqualsSyntax { Parent: AttributeArgumentSyntax { Parent: AttributeArgumentListSyntax { Parent: AttributeSyntax attr } } }
            || AppliedAttribute(attr) is not { AttributeConstructor: not null, AttributeClass: { } type }) return null;
        for (var t = type; t is not null; t = t.BaseType)
        {
            var members = t.GetMembers(name.Identifier.ValueText);
            if (members.IsEmpty) continue;
            // Only a public member (the compiler skips an inaccessible one, GetSymbolInfo then names another).
            return members is [{ DeclaredAccessibility: Accessibility.Public } member] && member switch
            {
                IPropertySymbol p => !p.IsStatic && !p.IsIndexer && p.SetMethod is not null,
                IFieldSymbol f => !f.IsStatic && !f.IsReadOnly && !f.IsConst,
                _ => false,
            } ? member : null;
        }
        return null;
    }

    /// <summary>`new T(...)` and `new(...)`: one Instantiate to the constructor and one to the type,
    /// at the type name (or at `new` when the type is implicit).</summary>
    public void ObjectCreation(BaseObjectCreationExpressionSyntax creation, string? from)
    {
        var anchor = creation is ObjectCreationExpressionSyntax oc ? RightmostIdentifier(oc.Type) ?? creation.NewKeyword : creation.NewKeyword;
        var info = _ctx.Model.GetSymbolInfo(creation);
        var (bound, candidates) = Bound.Of(info);
        var ctor = bound as IMethodSymbol;
        var created = ctor?.ContainingType ?? _ctx.Model.GetTypeInfo(creation).Type;

        var ctorOk = ctor is not null && SymbolFacts.IsReferenceable(ctor);
        var typeOk = created is INamedTypeSymbol && SymbolFacts.IsReferenceable(created);
        if (ctorOk) Add(SymbolFacts.Definition(ctor!), anchor, from, RefKinds.Instantiate, null);
        if (typeOk) Add(created!.OriginalDefinition, anchor, from, RefKinds.Instantiate, null);
        // No constructor applies (or several do): the type is known, the constructor is not.
        if (ctor is null && !candidates.IsDefaultOrEmpty)
            AddUnresolved(anchor, creation, from, RefKinds.Instantiate, candidates);
        // `new T()` of a type parameter is neither indexed nor unresolved.
        else if (!ctorOk && !typeOk && created is null or { TypeKind: TypeKind.Error })
            AddUnresolved(anchor, creation, from, RefKinds.Instantiate);
    }

    /// <summary>`: base(...)` / `: this(...)` and a primary-constructor base `: Base(x)` are calls.</summary>
    public void ConstructorCall(SyntaxNode call, SyntaxToken anchor, string? from)
    {
        var (ctor, candidates) = Bound.Of(_ctx.Model.GetSymbolInfo(call));
        if (ctor is IMethodSymbol && SymbolFacts.IsReferenceable(ctor)) Add(SymbolFacts.Definition(ctor), anchor, from, RefKinds.Call, null);
        else if (ctor is null) AddUnresolved(anchor, call, from, RefKinds.Call, candidates);
    }

    /// <summary>`x[i]` on an indexer is a Read or Write of it, at the `[` (where Roslyn puts it).</summary>
    public void ElementAccess(ElementAccessExpressionSyntax access, string? from)
    {
        if (_ctx.Model.GetSymbolInfo(access).Symbol is not IPropertySymbol { IsIndexer: true } indexer
            || !SymbolFacts.IsReferenceable(indexer)) return;
        var kind = IsWritten(access) ? RefKinds.Write : RefKinds.Read;
        Add(SymbolFacts.Definition(indexer), access.ArgumentList.OpenBracketToken, from, kind,
            ReceiverText(access.Expression));
    }

    /// <summary>A user-defined operator or conversion is a call, at its operator token (or the
    /// cast's open parenthesis). Built-in operators bind to no source symbol and are skipped.</summary>
    public void OperatorUse(ExpressionSyntax expr, SyntaxToken anchor, string? from)
    {
        var op = _ctx.Model.GetSymbolInfo(expr).Symbol as IMethodSymbol;
        // A cast the compiler carries out through a user-defined conversion to a base of its type (Newtonsoft.Json's
        // `(JValue)11.1f` runs JToken's `implicit operator JToken(float)`) binds to no symbol: its operation says it.
        if (op is null && expr is CastExpressionSyntax && ImplicitCalls.MayConvert(_ctx.Model.Compilation))
        {
            // The user-defined step may be inside the cast's own conversion (float -> JToken, then JToken -> JValue);
            // an explicit inner cast is its own CastExpression, visited (and recorded) on its own.
            var conversion = _ctx.Model.GetOperation(expr) as Microsoft.CodeAnalysis.Operations.IConversionOperation;
            while (conversion is { OperatorMethod: null, Operand: Microsoft.CodeAnalysis.Operations.IConversionOperation { IsImplicit: true } inner })
                conversion = inner;
            op = conversion?.OperatorMethod;
        }
        if (op is { MethodKind: MethodKind.UserDefinedOperator or MethodKind.Conversion } && SymbolFacts.IsReferenceable(op))
            Add(SymbolFacts.Definition(op), anchor, from, RefKinds.Call, null);
    }

    /// <summary>The type arguments of a call into generic code of the solution, as a `GenericCall` fact at the member's
    /// name (the reference names the generic definition): `type_arguments` of a constructed generic type
    /// (`IRepository&lt;CatalogItem&gt;.ListAsync`: a trace into an open-generic implementation, EfRepository&lt;T&gt;,
    /// needs the entity type to find tables), `method_type_arguments` of a generic method (`PublishEvent(new
    /// SeriesAdded())` infers SeriesAdded). An argument that is a type parameter of the calling code is written as
    /// its documentation-id form (``` ``0 ``` a method's, `` `0 `` a type's): graph_callers carries the type a handler
    /// needs up through `PublishEvent&lt;TEvent&gt;`'s `IHandle&lt;TEvent&gt;.Handle` (query/typeargs.py).</summary>
    private void TypeArgumentsOfCall(ISymbol bound, ISymbol definition, SimpleNameSyntax name, string? from)
    {
        if (!_ctx.Facts || !definition.Locations.Any(l => l.IsInSource)) return;
        var typeArgs = bound.ContainingType is { IsGenericType: true } type
                       && !SymbolEqualityComparer.Default.Equals(type, type.OriginalDefinition)
            ? TypeArgumentIds(type.TypeArguments, from) : null;
        // A reduced extension call (`e.Raise(ev)`) leaves out the type parameters its receiver fixes: the unreduced
        // method's arguments line up with the definition's ordinals.
        var called = bound is IMethodSymbol { ReducedFrom: not null } reduced ? reduced.GetConstructedReducedFrom() ?? reduced : bound as IMethodSymbol;
        var methodArgs = called is { IsGenericMethod: true } method
                         && !SymbolEqualityComparer.Default.Equals(method, method.OriginalDefinition)
            ? TypeArgumentIds(method.TypeArguments, from) : null;
        if ((typeArgs is null && methodArgs is null) || _ctx.IdOf(definition) is not { } target) return;
        var (line, col) = _ctx.Position(name.Identifier.SpanStart);
        _ctx.Result.Facts.Add(new FactRow("GenericCall", from, _ctx.ProjectIndex, _ctx.File, line, col, "high", target,
            new Facts.FactDetail().Add("type_arguments", typeArgs).Add("method_type_arguments", methodArgs).ToJson()));
    }

    /// <summary>Ids of type arguments (a constructed type as its generic definition), a type parameter as ``` ``n ```
    /// (a method's) or `` `n `` (a type's); null when one is neither (an error type, an array, a pointer...).</summary>
    private List<string>? TypeArgumentIds(System.Collections.Immutable.ImmutableArray<ITypeSymbol> arguments, string? from)
    {
        var ids = new List<string>(arguments.Length);
        foreach (var arg in arguments)
        {
            switch (arg)
            {
                // Only the calling member's own: a local function's or a lambda's parameter is not its ``n.
                case ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Method, DeclaringMethod: { } declaring } p
                    when from is not null && _ctx.IdOf(declaring.OriginalDefinition) == from:
                    ids.Add("``" + p.Ordinal);
                    break;
                case ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Type } p:
                    ids.Add("`" + p.Ordinal);
                    break;
                case INamedTypeSymbol { TypeKind: not TypeKind.Error } named when _ctx.IdOf(named.OriginalDefinition) is { } id:
                    ids.Add(id);
                    break;
                default:
                    return null;
            }
        }
        return ids;
    }

    /// <summary>A call the compiler makes on the code's behalf (ImplicitCalls), at `anchor`.</summary>
    public void AddImplicit(ISymbol target, SyntaxToken anchor, string? from) =>
        Add(target, anchor, from, RefKinds.ImplicitCall, null);

    private void Add(ISymbol target, SyntaxToken anchor, string? from, string kind, string? receiver)
    {
        var id = _ctx.IdOf(target);
        if (id is null) return;
        var (line, col) = _ctx.Position(anchor.SpanStart);
        var (_, endCol) = _ctx.Position(anchor.Span.End);
        var targetKind = SymbolFacts.KindOf(target);
        _ctx.Result.Refs.Add(new RefRow(id, SymbolFacts.Name(target), targetKind, from,
            _ctx.ProjectIndex, _ctx.File, line, col, endCol, kind, receiver, null));
        _ctx.External(target, id, targetKind);
    }

    private void AddUnresolved(SyntaxToken anchor, SyntaxNode expr, string? from, string kind,
        System.Collections.Immutable.ImmutableArray<ISymbol> candidates = default)
    {
        if (_ctx.Generated) return;
        var (line, col) = _ctx.Position(anchor.SpanStart);
        var (_, endCol) = _ctx.Position(anchor.Span.End);
        var receiver = expr is ExpressionSyntax e ? Receiver(e) : null;
        _ctx.Result.Refs.Add(new RefRow(null, anchor.ValueText, null, from,
            _ctx.ProjectIndex, _ctx.File, line, col, endCol, kind, receiver, CandidateIds(candidates)));
    }

    /// <summary>The candidates' ids (definitions, de-duplicated, sorted), or null when there are none.</summary>
    private List<string>? CandidateIds(System.Collections.Immutable.ImmutableArray<ISymbol> candidates)
    {
        if (candidates.IsDefaultOrEmpty) return null;
        var ids = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var c in candidates)
        {
            var symbol = c is IAliasSymbol a ? a.Target : c;
            if (!SymbolFacts.IsReferenceable(symbol)) continue;
            var definition = SymbolFacts.Definition(symbol);
            if (_ctx.IdOf(definition) is not { } id) continue;
            ids.Add(id);
            _ctx.External(definition, id, SymbolFacts.KindOf(definition));
        }
        return ids.Count > 0 ? ids.ToList() : null;
    }

    /// <summary>A name that bound to nothing is an unresolved reference only when the compiler
    /// could not type it either: dynamic member accesses and nameof() bind to no symbol legitimately.</summary>
    private bool IsUnresolved(SimpleNameSyntax name, ExpressionSyntax expr)
    {
        if (name.Parent is NameColonSyntax or NameEqualsSyntax or ExpressionColonSyntax) return false;
        // Contextual keywords bind to nothing when the project lacks its core library.
        if (name is IdentifierNameSyntax { IsVar: true } or IdentifierNameSyntax { IsNint: true } or IdentifierNameSyntax { IsNuint: true }
            or IdentifierNameSyntax { IsUnmanaged: true } or IdentifierNameSyntax { IsNotNull: true }) return false;
        var text = name.Identifier.ValueText;
        if (text is "dynamic" or "_" || (text == "nameof" && IsInvoked(expr))) return false;
        SyntaxNode probe = IsInvoked(expr) ? expr.Parent! : expr;
        var type = _ctx.Model.GetTypeInfo(probe).Type;
        return type is null || type.TypeKind == TypeKind.Error;
    }

    /// <summary>A call that binds to nothing although its value has a type: a use-site error (eShop's
    /// `builder.AddRabbitMqEventBus("eventbus")`, whose declaring project lacks the package of a parameter's
    /// type, still returns its IEventBusBuilder). Recorded as unresolved rather than dropped.</summary>
    private static bool IsUnboundCall(SimpleNameSyntax name, ExpressionSyntax expr) =>
        IsInvoked(expr) && name.Identifier.ValueText != "nameof";

    private static string UnresolvedKind(ExpressionSyntax expr)
    {
        if (IsInvoked(expr)) return RefKinds.Call;
        if (SyntaxFacts.IsInTypeOnlyContext(expr)) return RefKinds.TypeRef;
        return IsWritten(expr) ? RefKinds.Write : RefKinds.Read;
    }

    /// <summary>The expression a name stands for: `a.B` for B, `a?.B` binding, `N.T` for T.</summary>
    private static ExpressionSyntax ExpressionFor(SimpleNameSyntax name) => name.Parent switch
    {
        MemberAccessExpressionSyntax ma when ma.Name == name => ma,
        MemberBindingExpressionSyntax mb when mb.Name == name => mb,
        QualifiedNameSyntax q when q.Right == name => q,
        AliasQualifiedNameSyntax aq when aq.Name == name => aq,
        _ => name,
    };

    private static bool IsInvoked(ExpressionSyntax expr) =>
        expr.Parent is InvocationExpressionSyntax inv && inv.Expression == expr;

    private static bool IsBaseListEntry(ExpressionSyntax expr) => expr.Parent is BaseTypeSyntax bt && bt.Type == expr;

    /// <summary>Assignment target (incl. compound and deconstruction), ++/--, or a ref/out argument.</summary>
    private static bool IsWritten(ExpressionSyntax expr)
    {
        SyntaxNode node = expr;
        while (true)
        {
            if (node.Parent is ParenthesizedExpressionSyntax p) { node = p; continue; }
            if (node.Parent is ArgumentSyntax { RefKindKeyword.RawKind: 0, Parent: TupleExpressionSyntax tuple }) { node = tuple; continue; }
            break;
        }
        return node.Parent switch
        {
            AssignmentExpressionSyntax a => a.Left == node,
            PostfixUnaryExpressionSyntax u => u.IsKind(SyntaxKind.PostIncrementExpression) || u.IsKind(SyntaxKind.PostDecrementExpression),
            PrefixUnaryExpressionSyntax u => u.IsKind(SyntaxKind.PreIncrementExpression) || u.IsKind(SyntaxKind.PreDecrementExpression),
            ArgumentSyntax arg => arg.RefKindKeyword.IsKind(SyntaxKind.RefKeyword) || arg.RefKindKeyword.IsKind(SyntaxKind.OutKeyword),
            // `[Column(Order = 2)]`: the attribute sets the property (Roslyn's operation is an assignment).
            NameEqualsSyntax { Parent: AttributeArgumentSyntax } => true,
            _ => false,
        };
    }

    /// <summary>Source text of the receiver of a member access: `_repo` in `_repo.Save(x)`,
    /// `a?.b` in `a?.b?.c`, `a?.b` in `a?.b.c`; null for simple names and type names.</summary>
    private string? Receiver(ExpressionSyntax expr)
    {
        ExpressionSyntax binding;
        int? end = null; // null: the receiver of a binding ends before its `?.`
        switch (expr)
        {
            case MemberAccessExpressionSyntax ma:
                binding = LeftmostOf(ma.Expression);
                if (binding is not MemberBindingExpressionSyntax and not ElementBindingExpressionSyntax)
                    return ReceiverText(ma.Expression);
                end = ma.Expression.Span.End;
                break;
            case MemberBindingExpressionSyntax mb:
                binding = mb;
                break;
            default:
                return null;
        }
        // Inside a conditional chain the receiver text starts at the chain's root.
        ConditionalAccessExpressionSyntax? access = null;
        for (var n = binding.Parent; n is not null; n = n.Parent)
        {
            if (n is ConditionalAccessExpressionSyntax ca && ca.WhenNotNull.Span.Contains(binding.Span)) { access = ca; break; }
        }
        if (access is null) return null;
        var root = access;
        while (root.Parent is ConditionalAccessExpressionSyntax outer && outer.WhenNotNull == root) root = outer;
        var span = Microsoft.CodeAnalysis.Text.TextSpan.FromBounds(root.SpanStart, end ?? access.OperatorToken.SpanStart);
        return Collapse(_ctx.Text.ToString(span));
    }

    /// <summary>The innermost receiver of a chain `x.y().z[0]!` (x).</summary>
    private static ExpressionSyntax LeftmostOf(ExpressionSyntax expr)
    {
        while (true)
        {
            switch (expr)
            {
                case MemberAccessExpressionSyntax m: expr = m.Expression; continue;
                case InvocationExpressionSyntax i: expr = i.Expression; continue;
                case ElementAccessExpressionSyntax e: expr = e.Expression; continue;
                case PostfixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.SuppressNullableWarningExpression } p: expr = p.Operand; continue;
                default: return expr;
            }
        }
    }

    /// <summary>The collapsed text of a receiver expression: a plain name or `this` as its token's own string (no
    /// copy: most receivers are `_repo`, `this`, `x`), anything else from its text.</summary>
    private static string ReceiverText(ExpressionSyntax receiver) => receiver switch
    {
        IdentifierNameSyntax { Identifier.Text: { Length: < MaxReceiverLength } text } => text,
        ThisExpressionSyntax or BaseExpressionSyntax => receiver.GetFirstToken().Text,
        _ => Collapse(receiver.ToString()),
    };

    private static string Collapse(string text)
    {
        var sb = new System.Text.StringBuilder(Math.Min(text.Length, MaxReceiverLength));
        var space = false;
        foreach (var c in text)
        {
            if (char.IsWhiteSpace(c)) { space = sb.Length > 0; continue; }
            if (space) { sb.Append(' '); space = false; }
            sb.Append(c);
            if (sb.Length >= MaxReceiverLength) break;
        }
        return sb.ToString();
    }

    private static SyntaxToken? RightmostIdentifier(TypeSyntax type) => type switch
    {
        SimpleNameSyntax s => s.Identifier,
        QualifiedNameSyntax q => q.Right.Identifier,
        AliasQualifiedNameSyntax aq => aq.Name.Identifier,
        NullableTypeSyntax n => RightmostIdentifier(n.ElementType),
        _ => null,
    };
}
