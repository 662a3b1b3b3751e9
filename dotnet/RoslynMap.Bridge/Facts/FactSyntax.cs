using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>Syntax helpers shared by the fact extractors: names, receivers, arguments, constants.</summary>
internal static class FactSyntax
{
    /// <summary>Type names as users write them: `IOrderStore`, `Outer.Inner`, `IRepo&lt;Order&gt;`.</summary>
    public static readonly SymbolDisplayFormat ShortType = new(
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypes,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters,
        miscellaneousOptions: SymbolDisplayMiscellaneousOptions.UseSpecialTypes);

    /// <summary>The invoked member's name: `B` in `a.B(...)`, `a?.B(...)`, `B&lt;T&gt;(...)`.</summary>
    public static SimpleNameSyntax? Name(InvocationExpressionSyntax inv) => inv.Expression switch
    {
        MemberAccessExpressionSyntax m => m.Name,
        MemberBindingExpressionSyntax b => b.Name,
        SimpleNameSyntax s => s,
        _ => null,
    };

    public static string? NameText(InvocationExpressionSyntax inv) => Name(inv)?.Identifier.ValueText;

    /// <summary>`a` in `a.B(...)`; null for a bare call or a conditional access.</summary>
    public static ExpressionSyntax? Receiver(InvocationExpressionSyntax inv) =>
        inv.Expression is MemberAccessExpressionSyntax m ? m.Expression : null;

    public static ExpressionSyntax Unwrap(ExpressionSyntax e)
    {
        while (true)
        {
            switch (e)
            {
                case ParenthesizedExpressionSyntax p: e = p.Expression; continue;
                case PostfixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.SuppressNullableWarningExpression } n: e = n.Operand; continue;
                default: return e;
            }
        }
    }

    /// <summary>The argument for a parameter: by name when named, else by position.</summary>
    public static ArgumentSyntax? Arg(BaseArgumentListSyntax? list, int position, string? name = null)
    {
        if (list is null) return null;
        var args = list.Arguments;
        if (name is not null)
        {
            foreach (var a in args)
            {
                if (a.NameColon?.Name.Identifier.ValueText == name) return a;
            }
        }
        return position < args.Count && args[position].NameColon is null ? args[position] : null;
    }

    public static bool IsLambda(ExpressionSyntax e) => Unwrap(e) is AnonymousFunctionExpressionSyntax;

    /// <summary>A string known at compile time: a literal, a constant, or a local whose initializer
    /// is one. An interpolated string whose holes are all constant strings is a constant too (C# 10:
    /// `$"{Constants.Root}/{{**slug}}"` is `/row/{**slug}`); others only when allowed (SQL, log templates),
    /// the holes that are not constant as `{expr}`.</summary>
    public static string? ConstantString(SemanticModel model, ExpressionSyntax? e, bool interpolated = false, int depth = 0)
    {
        if (e is null) return null;
        e = Unwrap(e);
        switch (e)
        {
            case LiteralExpressionSyntax lit:
                return lit.IsKind(SyntaxKind.StringLiteralExpression) ? lit.Token.ValueText : null;
            case InterpolatedStringExpressionSyntax istr:
                // The compiler's value first; a hole it could not evaluate (a project whose System.String did not
                // bind) is read as ConstantString reads a name.
                if (model.GetConstantValue(istr) is { HasValue: true, Value: string text }) return text;
                return Interpolated(model, istr, interpolated, depth);
            case IdentifierNameSyntax or MemberAccessExpressionSyntax or BinaryExpressionSyntax:
                break;
            case InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "nameof" } }:
                break; // nameof(CatalogOptions) is a constant
            default:
                return null;
        }
        var constant = model.GetConstantValue(e);
        if (constant.HasValue) return constant.Value as string;
        if (depth >= 2 || e is not (IdentifierNameSyntax or MemberAccessExpressionSyntax)) return null;
        var info = model.GetSymbolInfo(e);
        var symbol = info.Symbol ?? (info.CandidateSymbols.Length == 1 ? info.CandidateSymbols[0] : null);
        if (e is IdentifierNameSyntax && symbol is ILocalSymbol local && LocalInitializer(local) is { } init)
            return ConstantString(model, init, interpolated, depth + 1);
        // A const the compiler could not evaluate: a project without its framework references has no
        // System.String (ardalis/CleanArchitecture's `Put(UpdateContributorRequest.Route)` when restore failed).
        // Its declaration still spells the value.
        if (symbol is IFieldSymbol { IsConst: true } field && field.DeclaringSyntaxReferences.Length == 1
            && field.DeclaringSyntaxReferences[0].GetSyntax() is VariableDeclaratorSyntax { Initializer.Value: var value })
        {
            if (value.SyntaxTree == e.SyntaxTree) return ConstantString(model, value, interpolated, depth + 1);
            // Another document of this compilation has its own model; a const of another project's source is
            // read only when it is a literal (its tree is not this compilation's: no model to ask).
            if (model.Compilation.ContainsSyntaxTree(value.SyntaxTree))
                return ConstantString(model.Compilation.GetSemanticModel(value.SyntaxTree), value, interpolated, depth + 1);
            return FactSyntax.Unwrap(value) is LiteralExpressionSyntax literal && literal.IsKind(SyntaxKind.StringLiteralExpression)
                ? literal.Token.ValueText
                : null;
        }
        // `static readonly string Feed = "store/feed";` (Blogifier's route paths): a constant in all but name, unless
        // the static constructor sets it.
        if (symbol is IFieldSymbol { IsStatic: true, IsReadOnly: true, IsConst: false } readOnly
            && readOnly.DeclaringSyntaxReferences is [var declared]
            && declared.GetSyntax() is VariableDeclaratorSyntax { Initializer.Value: var initial }
            && Unwrap(initial) is LiteralExpressionSyntax literalValue && literalValue.IsKind(SyntaxKind.StringLiteralExpression)
            && !AssignedInStaticConstructor(readOnly))
            return literalValue.Token.ValueText;
        // `public static string CosmosDbEndpoint => "CosmosDbEndpoint";` (trading-app-functions-dotnet's key names), or
        // `{ get; } = "x"` with no setter: a constant a property returns.
        if (symbol is IPropertySymbol { IsStatic: true, SetMethod: null } property && property.DeclaringSyntaxReferences is [var prop]
            && prop.GetSyntax() is PropertyDeclarationSyntax declaration
            && (declaration.ExpressionBody?.Expression ?? declaration.Initializer?.Value) is { } returned
            && Unwrap(returned) is LiteralExpressionSyntax returnedLiteral && returnedLiteral.IsKind(SyntaxKind.StringLiteralExpression)
            && (declaration.ExpressionBody is not null || !AssignedInStaticConstructor(property)))
            return returnedLiteral.Token.ValueText;
        return null;
    }

    private static bool AssignedInStaticConstructor(ISymbol field) =>
        field.ContainingType.StaticConstructors.SelectMany(c => c.DeclaringSyntaxReferences)
            .SelectMany(r => r.GetSyntax().DescendantNodes().OfType<AssignmentExpressionSyntax>())
            .Any(a => LastName(a.Left) == field.Name);

    /// <summary>The parameter of `method` an argument lands in: by name, else by position (`offset` 1 after the
    /// receiver of an extension method called on one).</summary>
    public static IParameterSymbol? ParameterOf(IMethodSymbol method, ArgumentSyntax argument, int position, int offset)
    {
        if (argument.NameColon is { } named)
            return method.Parameters.FirstOrDefault(p => p.Name == named.Name.Identifier.ValueText);
        var index = position + offset;
        return index < method.Parameters.Length ? method.Parameters[index] : null;
    }

    public static ExpressionSyntax? LocalInitializer(ILocalSymbol local) =>
        local.DeclaringSyntaxReferences.Length == 1
        && local.DeclaringSyntaxReferences[0].GetSyntax() is VariableDeclaratorSyntax { Initializer.Value: var value }
            ? value
            : null;

    public static int? ConstantInt(SemanticModel model, ExpressionSyntax? e)
    {
        if (e is null) return null;
        var constant = model.GetConstantValue(e);
        return constant.HasValue && constant.Value is int n ? n : null;
    }

    /// <summary>An interpolated string with its constant string holes filled in; null when a hole is not one,
    /// unless `holes` allows writing such a hole as `{expr}`.</summary>
    private static string? Interpolated(SemanticModel model, InterpolatedStringExpressionSyntax istr, bool holes, int depth)
    {
        var sb = new StringBuilder();
        foreach (var part in istr.Contents)
        {
            if (part is InterpolatedStringTextSyntax text) sb.Append(text.TextToken.ValueText);
            else if (part is InterpolationSyntax hole)
            {
                // An alignment or a format changes what the value writes: not a constant.
                var constant = hole.AlignmentClause is null && hole.FormatClause is null
                    ? ConstantHole(model, hole.Expression, depth)
                    : null;
                if (constant is not null) sb.Append(constant);
                else if (holes) sb.Append('{').Append(Collapse(hole.Expression.ToString())).Append('}');
                else return null;
            }
        }
        return sb.ToString();
    }

    /// <summary>A hole's value when the compiler's rules make it a constant string: its constant value, or a const
    /// whose value it could not evaluate (read from its declaration). A local's initializer is not followed here: a
    /// hole that is no constant stays a hole.</summary>
    private static string? ConstantHole(SemanticModel model, ExpressionSyntax e, int depth)
    {
        if (model.GetConstantValue(e) is { HasValue: true, Value: string value }) return value;
        if (Unwrap(e) is not (IdentifierNameSyntax or MemberAccessExpressionSyntax)) return null;
        var info = model.GetSymbolInfo(e);
        var symbol = info.Symbol ?? (info.CandidateSymbols.Length == 1 ? info.CandidateSymbols[0] : null);
        return symbol is IFieldSymbol { IsConst: true } or ILocalSymbol { IsConst: true } ? ConstantString(model, e, depth: depth) : null;
    }

    /// <summary>Rightmost identifier text of a name or member access (`Services` in `builder.Services`).</summary>
    public static string? LastName(ExpressionSyntax? e) => e is null ? null : Unwrap(e) switch
    {
        SimpleNameSyntax s => s.Identifier.ValueText,
        MemberAccessExpressionSyntax m => m.Name.Identifier.ValueText,
        InvocationExpressionSyntax i => NameText(i),
        _ => null,
    };

    /// <summary>A type's name without namespace or type arguments (`SubGroup` for `FastEndpoints.SubGroup&lt;Admin&gt;`).</summary>
    public static string? TypeName(TypeSyntax type) => type switch
    {
        QualifiedNameSyntax q => q.Right.Identifier.ValueText,
        AliasQualifiedNameSyntax a => a.Name.Identifier.ValueText,
        SimpleNameSyntax s => s.Identifier.ValueText,
        _ => null,
    };

    public static bool NameContains(ExpressionSyntax? e, string part) =>
        LastName(e)?.Contains(part, StringComparison.OrdinalIgnoreCase) == true;

    /// <summary>Attribute name without namespace and `Attribute` suffix.</summary>
    public static string AttributeName(AttributeSyntax attr)
    {
        var name = attr.Name switch
        {
            QualifiedNameSyntax q => q.Right.Identifier.ValueText,
            AliasQualifiedNameSyntax a => a.Name.Identifier.ValueText,
            SimpleNameSyntax s => s.Identifier.ValueText,
            _ => attr.Name.ToString(),
        };
        return name.EndsWith("Attribute", StringComparison.Ordinal) ? name[..^"Attribute".Length] : name;
    }

    /// <summary>Positional attribute argument (no `Name =` and no `name:`).</summary>
    public static AttributeArgumentSyntax? PositionalArg(AttributeSyntax attr, int position)
    {
        if (attr.ArgumentList is null) return null;
        var i = 0;
        foreach (var a in attr.ArgumentList.Arguments)
        {
            if (a.NameEquals is not null || a.NameColon is not null) continue;
            if (i++ == position) return a;
        }
        return null;
    }

    public static AttributeArgumentSyntax? NamedArg(AttributeSyntax attr, string name)
    {
        if (attr.ArgumentList is null) return null;
        foreach (var a in attr.ArgumentList.Arguments)
        {
            if (a.NameEquals?.Name.Identifier.ValueText == name || a.NameColon?.Name.Identifier.ValueText == name) return a;
        }
        return null;
    }

    /// <summary>Display name of a type argument: the bound symbol when it binds, else the text.</summary>
    public static string TypeName(SemanticModel model, TypeSyntax type)
    {
        var symbol = model.GetTypeInfo(type).Type;
        return symbol is null or { TypeKind: TypeKind.Error } ? Collapse(type.ToString()) : symbol.ToDisplayString(ShortType);
    }

    public static string TypeName(ITypeSymbol type) => type.ToDisplayString(ShortType);

    /// <summary>Type arguments written on the invoked name (`AddScoped&lt;A, B&gt;`), else none.</summary>
    public static SeparatedSyntaxList<TypeSyntax> TypeArgs(InvocationExpressionSyntax inv) =>
        Name(inv) is GenericNameSyntax g ? g.TypeArgumentList.Arguments : default;

    public static string Collapse(string text)
    {
        var sb = new StringBuilder(text.Length);
        var space = false;
        foreach (var c in text)
        {
            if (char.IsWhiteSpace(c)) { space = sb.Length > 0; continue; }
            if (space) { sb.Append(' '); space = false; }
            sb.Append(c);
        }
        return sb.ToString();
    }

    /// <summary>The outermost call of a fluent chain this invocation is part of (`a.B().C()` for B).</summary>
    public static ExpressionSyntax ChainTop(ExpressionSyntax e)
    {
        while (e.Parent is MemberAccessExpressionSyntax ma && ma.Expression == e && ma.Parent is InvocationExpressionSyntax outer)
            e = outer;
        return e;
    }

    /// <summary>The calls of a fluent chain below this one, innermost last (`a.B().C()`: C, B).</summary>
    public static IEnumerable<InvocationExpressionSyntax> ChainBelow(ExpressionSyntax? e)
    {
        while (e is not null)
        {
            e = Unwrap(e);
            if (e is InvocationExpressionSyntax inv)
            {
                yield return inv;
                e = Receiver(inv);
            }
            else if (e is MemberAccessExpressionSyntax ma) e = ma.Expression;
            else yield break;
        }
    }
}
