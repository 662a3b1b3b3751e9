using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>
/// Inheritance facts of declared symbols: type relations (base type, declared interfaces) and the
/// Override / Implementation references from a member to the member it overrides or implements.
/// </summary>
internal sealed class MemberRelations
{
    private readonly DocumentContext _ctx;

    // Per containing type: implementing member → interface members it implements (implicitly), and the interface
    // members it implements with a member borrowed from a base class that does not implement them (one pass of
    // FindImplementationForInterfaceMember serves both).
    private readonly Dictionary<INamedTypeSymbol, (Dictionary<ISymbol, List<ISymbol>> Map, List<(ISymbol Member, ISymbol Impl)> Borrowed)>
        _implementations = new(SymbolEqualityComparer.Default);

    public MemberRelations(DocumentContext ctx)
    {
        _ctx = ctx;
    }

    public void TypeRelations(INamedTypeSymbol type, string typeId)
    {
        if (type.TypeKind is TypeKind.Class && type.BaseType is { } baseType && !IsImplicitBase(baseType))
            AddRelation(typeId, baseType, "base");
        foreach (var iface in type.Interfaces)
        {
            // Records implement IEquatable<Self> without saying so.
            if (type.IsRecord && IsSelfEquatable(type, iface)) continue;
            AddRelation(typeId, iface, "interface");
        }
    }

    /// <summary>An interface member this class implements with a member it inherits from a base class that does not
    /// implement the interface itself (Ombi's `MovieRequestEngine : BaseMediaEngine, IMovieRequestEngine`, with
    /// `SubscribeToRequest` declared in BaseMediaEngine): the base's member implements it, through this class. The
    /// reference is at this class's name (its declaration says so); a base implementing the interface says it itself.</summary>
    public void BorrowedImplementations(INamedTypeSymbol type, int idStart, int idEnd)
    {
        if (type.TypeKind != TypeKind.Class || type.Interfaces.Length == 0) return;
        foreach (var (member, impl) in Implementations(type).Borrowed)
        {
            if (_ctx.IdOf(SymbolFacts.Definition(impl)) is { } implId) AddRef(member, implId, idStart, idEnd, RefKinds.Implementation);
        }
    }

    public void MemberRefs(ISymbol member, string memberId, int idStart, int idEnd)
    {
        var overridden = member switch
        {
            IMethodSymbol { IsOverride: true } m => m.OverriddenMethod,
            IPropertySymbol { IsOverride: true } p => p.OverriddenProperty,
            IEventSymbol { IsOverride: true } e => (ISymbol?)e.OverriddenEvent,
            _ => null,
        };
        if (overridden is not null) AddRef(overridden, memberId, idStart, idEnd, RefKinds.Override);
        foreach (var implemented in ImplementedMembers(member))
            AddRef(implemented, memberId, idStart, idEnd, RefKinds.Implementation);
    }

    private IEnumerable<ISymbol> ImplementedMembers(ISymbol member)
    {
        var explicitOnes = member switch
        {
            IMethodSymbol m => m.ExplicitInterfaceImplementations.CastArray<ISymbol>(),
            IPropertySymbol p => p.ExplicitInterfaceImplementations.CastArray<ISymbol>(),
            IEventSymbol e => e.ExplicitInterfaceImplementations.CastArray<ISymbol>(),
            _ => [],
        };
        if (explicitOnes.Length > 0) return explicitOnes;
        if (member is not (IMethodSymbol or IPropertySymbol or IEventSymbol)) return [];
        if (member.ContainingType is not { TypeKind: not TypeKind.Interface } type) return [];
        return Implementations(type).Map.TryGetValue(member, out var list) ? list : [];
    }

    private (Dictionary<ISymbol, List<ISymbol>> Map, List<(ISymbol Member, ISymbol Impl)> Borrowed) Implementations(INamedTypeSymbol type)
    {
        if (_implementations.TryGetValue(type, out var known)) return known;
        var map = new Dictionary<ISymbol, List<ISymbol>>(SymbolEqualityComparer.Default);
        var borrowed = new List<(ISymbol, ISymbol)>();
        foreach (var iface in type.AllInterfaces)
        {
            foreach (var ifaceMember in iface.GetMembers())
            {
                if (ifaceMember is IMethodSymbol { MethodKind: not MethodKind.Ordinary }) continue;
                if (ifaceMember is not (IMethodSymbol or IPropertySymbol or IEventSymbol)) continue;
                var impl = type.FindImplementationForInterfaceMember(ifaceMember);
                if (impl?.ContainingType is not { } owner) continue;
                if (!SymbolEqualityComparer.Default.Equals(owner, type))
                {
                    // Inherited: the base's own, unless the base does not implement this interface (borrowed here) and
                    // no nearer base already borrows it for it.
                    if (type.TypeKind == TypeKind.Class && !ifaceMember.IsStatic && owner.TypeKind != TypeKind.Interface
                        && owner.Locations.Any(l => l.IsInSource)
                        && !owner.AllInterfaces.Contains(iface, SymbolEqualityComparer.Default)
                        && !SymbolEqualityComparer.Default.Equals(type.BaseType?.FindImplementationForInterfaceMember(ifaceMember), impl))
                        borrowed.Add((ifaceMember, impl));
                    continue;
                }
                impl = impl is IMethodSymbol { PartialDefinitionPart: { } def } ? def : impl;
                if (!map.TryGetValue(impl, out var list)) map[impl] = list = new List<ISymbol>();
                list.Add(ifaceMember);
            }
        }
        known = (map, borrowed);
        _implementations[type] = known;
        return known;
    }

    private void AddRef(ISymbol target, string fromId, int idStart, int idEnd, string kind)
    {
        var def = SymbolFacts.Definition(target);
        var (line, col) = _ctx.Position(idStart);
        var (_, endCol) = _ctx.Position(idEnd);
        var id = _ctx.IdOf(def);
        var targetKind = SymbolFacts.KindOf(def);
        _ctx.Result.Refs.Add(new RefRow(id, SymbolFacts.Name(def), targetKind, fromId,
            _ctx.ProjectIndex, _ctx.File, line, col, endCol, kind, null, null));
        if (id is not null) _ctx.External(def, id, targetKind);
    }

    private void AddRelation(string typeId, INamedTypeSymbol related, string kind)
    {
        var def = related.OriginalDefinition;
        var id = def.TypeKind == TypeKind.Error ? null : _ctx.IdOf(def);
        _ctx.Result.Relations.Add(new RelationRow(typeId, id, def.Name, kind, _ctx.ProjectIndex));
    }

    private static bool IsImplicitBase(INamedTypeSymbol t) => t.SpecialType is SpecialType.System_Object
        or SpecialType.System_ValueType or SpecialType.System_Enum or SpecialType.System_MulticastDelegate;

    private static bool IsSelfEquatable(INamedTypeSymbol type, INamedTypeSymbol iface) =>
        iface is { Name: "IEquatable", Arity: 1, ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } }
        && SymbolEqualityComparer.Default.Equals(iface.TypeArguments[0], type);
}
