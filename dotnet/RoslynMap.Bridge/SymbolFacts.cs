using Microsoft.CodeAnalysis;

namespace RoslynMap.Bridge;

/// <summary>Contract-level facts about a Roslyn symbol: kind, visibility, names and ids.</summary>
internal static class SymbolFacts
{
    /// <summary>Qualified name without "global::" and without parameter lists.</summary>
    public static readonly SymbolDisplayFormat FqnFormat = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypesAndNamespaces,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters,
        memberOptions: SymbolDisplayMemberOptions.IncludeContainingType | SymbolDisplayMemberOptions.IncludeExplicitInterface,
        miscellaneousOptions: SymbolDisplayMiscellaneousOptions.EscapeKeywordIdentifiers);

    /// <summary>Type display for fingerprints: qualified, special-type keywords, no nullability
    /// annotations (so toggling `?` does not change a stable id).</summary>
    public static readonly SymbolDisplayFormat TypeFormat = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypesAndNamespaces,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters,
        miscellaneousOptions: SymbolDisplayMiscellaneousOptions.UseSpecialTypes);

    /// <summary>Signature of a metadata symbol, as an agent would read it in C#:
    /// `Task<int> DbContext.SaveChangesAsync(CancellationToken cancellationToken = default)`.</summary>
    public static readonly SymbolDisplayFormat ExternalSignatureFormat = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypes,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters | SymbolDisplayGenericsOptions.IncludeVariance,
        memberOptions: SymbolDisplayMemberOptions.IncludeType | SymbolDisplayMemberOptions.IncludeParameters
                       | SymbolDisplayMemberOptions.IncludeContainingType | SymbolDisplayMemberOptions.IncludeModifiers
                       | SymbolDisplayMemberOptions.IncludeRef,
        kindOptions: SymbolDisplayKindOptions.IncludeTypeKeyword,
        parameterOptions: SymbolDisplayParameterOptions.IncludeType | SymbolDisplayParameterOptions.IncludeName
                          | SymbolDisplayParameterOptions.IncludeParamsRefOut | SymbolDisplayParameterOptions.IncludeDefaultValue
                          | SymbolDisplayParameterOptions.IncludeExtensionThis,
        propertyStyle: SymbolDisplayPropertyStyle.ShowReadWriteDescriptor,
        miscellaneousOptions: SymbolDisplayMiscellaneousOptions.UseSpecialTypes | SymbolDisplayMiscellaneousOptions.EscapeKeywordIdentifiers);

    /// <summary>The contract's symbol kind, or null for symbols the index does not hold.</summary>
    public static string? KindOf(ISymbol symbol) => symbol switch
    {
        INamedTypeSymbol t => t.TypeKind switch
        {
            TypeKind.Class => t.IsRecord ? "Record" : "Class",
            TypeKind.Struct => t.IsRecord ? "RecordStruct" : "Struct",
            TypeKind.Interface => "Interface",
            TypeKind.Enum => "Enum",
            TypeKind.Delegate => "Delegate",
            _ => null,
        },
        IMethodSymbol m => m.MethodKind switch
        {
            MethodKind.Ordinary or MethodKind.ExplicitInterfaceImplementation or MethodKind.DelegateInvoke
                or MethodKind.ReducedExtension => "Method",
            MethodKind.Constructor or MethodKind.StaticConstructor => "Constructor",
            MethodKind.Destructor => "Destructor",
            MethodKind.UserDefinedOperator => "Operator",
            MethodKind.Conversion => "Conversion",
            // Accessors are reached through their property or event, never indexed alone.
            MethodKind.PropertyGet or MethodKind.PropertySet or MethodKind.EventAdd
                or MethodKind.EventRemove or MethodKind.EventRaise => "Method",
            _ => null,
        },
        IPropertySymbol p => p.IsIndexer ? "Indexer" : "Property",
        IFieldSymbol f => f.IsConst ? (f.ContainingType?.TypeKind == TypeKind.Enum ? "EnumMember" : "Constant") : "Field",
        IEventSymbol => "Event",
        _ => null,
    };

    public static string Visibility(ISymbol symbol) => symbol.DeclaredAccessibility switch
    {
        Accessibility.Public => "public",
        Accessibility.Internal => "internal",
        Accessibility.Protected => "protected",
        Accessibility.ProtectedOrInternal => "protected internal",
        Accessibility.ProtectedAndInternal => "private protected",
        _ => "private",
    };

    /// <summary>The symbol a reference is recorded against: generic instantiations and reduced
    /// extension methods collapse to their definition so ids are stable.</summary>
    public static ISymbol Definition(ISymbol symbol)
    {
        if (symbol is IMethodSymbol { ReducedFrom: { } reduced }) symbol = reduced;
        return symbol.OriginalDefinition;
    }

    public static string? DocId(ISymbol symbol)
    {
        try
        {
            var id = DocumentationCommentId.CreateDeclarationId(symbol);
            // Roslyn appends "~ReturnType" to every non-void method (dotnet/roslyn#65301); the
            // documented id format keeps it for conversion operators only. C# cannot overload on
            // return type otherwise, so dropping it loses nothing and keeps ids stable when a
            // return type changes.
            if (id is not null && symbol is IMethodSymbol { MethodKind: not MethodKind.Conversion })
            {
                var tilde = id.IndexOf('~');
                if (tilde > 0) id = id[..tilde];
            }
            return id;
        }
        catch (Exception)
        {
            // Some synthesized symbols have no declaration id; they are simply not indexed.
            return null;
        }
    }

    /// <summary>Display name used for symbols and reference targets: constructors take their
    /// type's name, explicit interface implementations their simple member name.</summary>
    public static string Name(ISymbol symbol)
    {
        if (symbol is IMethodSymbol m)
        {
            if (m.MethodKind is MethodKind.Constructor or MethodKind.StaticConstructor) return m.ContainingType.Name;
            if (m.MethodKind is MethodKind.Destructor) return "~" + m.ContainingType.Name;
            if (m.ExplicitInterfaceImplementations.Length > 0) return m.ExplicitInterfaceImplementations[0].Name;
        }
        if (symbol is IPropertySymbol { ExplicitInterfaceImplementations.Length: > 0 } p) return p.ExplicitInterfaceImplementations[0].Name;
        if (symbol is IEventSymbol { ExplicitInterfaceImplementations.Length: > 0 } e) return e.ExplicitInterfaceImplementations[0].Name;
        return symbol.Name;
    }

    public static string Fqn(ISymbol symbol)
    {
        // The synthesized entry point displays as "<top-level-statements-entry-point>".
        if (symbol is IMethodSymbol { Name: WellKnownMemberNames.TopLevelStatementsEntryPointMethodName } main)
            return main.ContainingType.ToDisplayString(FqnFormat) + "." + main.Name;
        return symbol.ToDisplayString(FqnFormat);
    }

    /// <summary>The indexed type that contains a member: C# 14 extension blocks are not indexed
    /// themselves, so their members belong to the enclosing static class.</summary>
    public static INamedTypeSymbol? Container(ISymbol symbol)
    {
        var type = symbol.ContainingType;
        while (type is { TypeKind: TypeKind.Extension }) type = type.ContainingType;
        return type;
    }

    public static string Namespace(ISymbol symbol)
    {
        var ns = symbol.ContainingNamespace;
        return ns is null || ns.IsGlobalNamespace ? "" : ns.ToDisplayString(FqnFormat);
    }

    public static int Arity(ISymbol symbol) => symbol switch
    {
        INamedTypeSymbol t => t.Arity,
        IMethodSymbol m => m.Arity,
        _ => 0,
    };

    /// <summary>Symbols a reference can never point at in the index (no declaration id or
    /// purely local): locals, parameters, labels, namespaces, tuple elements, anonymous members.</summary>
    public static bool IsReferenceable(ISymbol symbol)
    {
        switch (symbol.Kind)
        {
            case SymbolKind.NamedType:
            case SymbolKind.Method:
            case SymbolKind.Property:
            case SymbolKind.Field:
            case SymbolKind.Event:
                break;
            default:
                return false;
        }
        if (symbol is IMethodSymbol { MethodKind: MethodKind.LocalFunction or MethodKind.AnonymousFunction
                or MethodKind.BuiltinOperator or MethodKind.FunctionPointerSignature }) return false;
        if (symbol is IFieldSymbol { CorrespondingTupleField: not null } or IFieldSymbol { ContainingType.IsTupleType: true }) return false;
        if (symbol.ContainingType is { IsAnonymousType: true } || symbol is INamedTypeSymbol { IsAnonymousType: true }) return false;
        if (symbol is INamedTypeSymbol { TypeKind: TypeKind.Error or TypeKind.Dynamic }) return false;
        return true;
    }
}
