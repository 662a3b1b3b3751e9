using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge;

/// <summary>
/// The type a name in a member's signature stands for (`Task&lt;Order&gt; Get(IReadOnlyList&lt;int&gt; ids)`), read
/// from the declared member's symbol, which the compiler bound with the declaration. Asking the semantic model about
/// such a name binds it again outside any member body, uncached (a sixteenth of Newtonsoft.Json's walk). Only what
/// maps one to one is answered (parameter, return, property, field and event types, through generic arguments,
/// arrays, nullables, tuples, pointers and containing types); anything else, or an error type anywhere on the way,
/// is null and the model is asked as before, so the symbol is the one the model gives.
/// </summary>
internal static class SignatureTypes
{
    public static ITypeSymbol? Of(SimpleNameSyntax name, SemanticModel model)
    {
        // Climb to the whole type the name is part of.
        SyntaxNode node = name;
        while (node.Parent is TypeSyntax or TypeArgumentListSyntax or TupleElementSyntax or ArrayRankSpecifierSyntax)
        {
            if (node.Parent is ArrayRankSpecifierSyntax) return null; // a size expression, not a type
            node = node.Parent;
        }
        if (node is not TypeSyntax whole || DeclaredType(whole, model) is not { } type) return null;
        return Find(whole, type, name);
    }

    private static ITypeSymbol? DeclaredType(TypeSyntax whole, SemanticModel model) => whole.Parent switch
    {
        ParameterSyntax p when p.Type == whole => (model.GetDeclaredSymbol(p) as IParameterSymbol)?.Type,
        MethodDeclarationSyntax m when m.ReturnType == whole => (model.GetDeclaredSymbol(m) as IMethodSymbol)?.ReturnType,
        OperatorDeclarationSyntax o when o.ReturnType == whole => (model.GetDeclaredSymbol(o) as IMethodSymbol)?.ReturnType,
        ConversionOperatorDeclarationSyntax c when c.Type == whole => (model.GetDeclaredSymbol(c) as IMethodSymbol)?.ReturnType,
        DelegateDeclarationSyntax d when d.ReturnType == whole => (model.GetDeclaredSymbol(d) as INamedTypeSymbol)?.DelegateInvokeMethod?.ReturnType,
        PropertyDeclarationSyntax p when p.Type == whole => (model.GetDeclaredSymbol(p) as IPropertySymbol)?.Type,
        IndexerDeclarationSyntax i when i.Type == whole => (model.GetDeclaredSymbol(i) as IPropertySymbol)?.Type,
        EventDeclarationSyntax e when e.Type == whole => (model.GetDeclaredSymbol(e) as IEventSymbol)?.Type,
        VariableDeclarationSyntax { Parent: BaseFieldDeclarationSyntax, Variables: [var first, ..] } v when v.Type == whole =>
            model.GetDeclaredSymbol(first) switch { IFieldSymbol f => f.Type, IEventSymbol e => e.Type, _ => null },
        _ => null,
    };

    /// <summary>Whether a name spells the type, as written or as the end of its full name (`Outer`, `Ns.Outer`,
    /// `Outer<int>`); an alias or `global::` is left to the model.</summary>
    private static bool Names(NameSyntax syntax, INamedTypeSymbol type)
    {
        var written = string.Concat(syntax.ToString().Where(c => !char.IsWhiteSpace(c)));
        var full = type.ToDisplayString();
        return full == written || full.EndsWith("." + written, StringComparison.Ordinal);
    }

    /// <summary>The part of `type` that `syntax` spells, down to `name`; null when they do not match.</summary>
    private static ITypeSymbol? Find(TypeSyntax syntax, ITypeSymbol type, SimpleNameSyntax name)
    {
        if (type.TypeKind == TypeKind.Error) return null;
        switch (syntax)
        {
            case IdentifierNameSyntax id:
                return id == name && type is INamedTypeSymbol ? type : null;
            case GenericNameSyntax generic:
                if (type is not INamedTypeSymbol { IsGenericType: true } named) return null;
                if (generic == name) return named;
                var args = generic.TypeArgumentList.Arguments;
                if (args.Count != named.TypeArguments.Length) return null;
                for (var i = 0; i < args.Count; i++)
                    if (args[i].Span.Contains(name.Span)) return Find(args[i], named.TypeArguments[i], name);
                return null;
            case QualifiedNameSyntax qualified:
                if (qualified.Right.Span.Contains(name.Span)) return Find(qualified.Right, type, name);
                // `Outer.Inner`: the left is the containing type, when it names it (`Derived.Inner` of an Inner declared
                // in Base, an alias or a namespace on the left: the model's to answer).
                return type.ContainingType is { } outer && Names(qualified.Left, outer) ? Find(qualified.Left, outer, name) : null;
            case AliasQualifiedNameSyntax aliased:
                return aliased.Name.Span.Contains(name.Span) ? Find(aliased.Name, type, name) : null;
            case NullableTypeSyntax nullable:
                var inner = type is INamedTypeSymbol { OriginalDefinition.SpecialType: SpecialType.System_Nullable_T } n ? n.TypeArguments[0] : type;
                return Find(nullable.ElementType, inner, name);
            case ArrayTypeSyntax array:
                var element = type;
                foreach (var _ in array.RankSpecifiers)
                    element = element is IArrayTypeSymbol a ? a.ElementType : null!;
                return element is null ? null : Find(array.ElementType, element, name);
            case PointerTypeSyntax pointer:
                return type is IPointerTypeSymbol p ? Find(pointer.ElementType, p.PointedAtType, name) : null;
            case TupleTypeSyntax tuple:
                if (type is not INamedTypeSymbol { IsTupleType: true, TupleElements: var elements } || elements.Length != tuple.Elements.Count) return null;
                for (var i = 0; i < elements.Length; i++)
                    if (tuple.Elements[i].Span.Contains(name.Span)) return Find(tuple.Elements[i].Type, elements[i].Type, name);
                return null;
            case RefTypeSyntax refType:
                return Find(refType.Type, type, name);
            case ScopedTypeSyntax scoped:
                return Find(scoped.Type, type, name);
            default:
                return null;
        }
    }
}
