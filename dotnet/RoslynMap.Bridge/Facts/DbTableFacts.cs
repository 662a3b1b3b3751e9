using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMap.Bridge.Facts;

/// <summary>
/// Database tables: EF Core DbSet properties (a context's own and those it inherits from a package's context,
/// `inherited: package` or `solution`), [Table] entities, ToTable mappings, a migration's RenameTable and DropTable (in Up;
/// FluentMigrator's `Rename.Table(..).To(..)` and `Delete.Table(..)` too), and table
/// names in raw SQL given to EF Core, Dapper or an ADO.NET command; and the stored procedures such a command runs
/// (`object: procedure`). Also a context's default schema (DbDefaultSchema), which its tables mapped without one are in.
/// </summary>
internal sealed class DbTableFacts
{
    private static readonly HashSet<string> EfSqlMethods = new(StringComparer.Ordinal)
    {
        "FromSqlRaw", "FromSqlInterpolated", "FromSql", "ExecuteSqlRaw", "ExecuteSqlRawAsync",
        "ExecuteSqlInterpolated", "ExecuteSqlInterpolatedAsync", "ExecuteSql", "ExecuteSqlAsync", "SqlQueryRaw", "SqlQuery",
    };

    private static readonly HashSet<string> DapperMethods = new(StringComparer.Ordinal)
    {
        "Query", "QueryAsync", "QueryFirst", "QueryFirstAsync", "QueryFirstOrDefault", "QueryFirstOrDefaultAsync",
        "QuerySingle", "QuerySingleAsync", "QuerySingleOrDefault", "QuerySingleOrDefaultAsync",
        "QueryMultiple", "QueryMultipleAsync", "Execute", "ExecuteAsync", "ExecuteScalar", "ExecuteScalarAsync",
        "ExecuteReader", "ExecuteReaderAsync",
    };

    private readonly FactSink _sink;

    public DbTableFacts(FactSink sink)
    {
        _sink = sink;
    }

    public static IEnumerable<string> InvocationNames =>
        EfSqlMethods.Concat(DapperMethods).Append("ToTable").Append("RenameTable").Append("DropTable").Append("HasDefaultSchema")
            .Append("Table").Append("Sql");

    public static bool IsDbSetType(TypeSyntax type) => type switch
    {
        GenericNameSyntax { Identifier.ValueText: "DbSet", TypeArgumentList.Arguments.Count: 1 } => true,
        QualifiedNameSyntax { Right: GenericNameSyntax right } => IsDbSetType(right),
        NullableTypeSyntax n => IsDbSetType(n.ElementType),
        _ => false,
    };

    /// <summary>`DbSet&lt;T&gt; Name` on a context: the table is the property name, unless T carries
    /// [Table] (reported on T itself).</summary>
    public void DbSet(PropertyDeclarationSyntax property, string? id)
    {
        var setType = _sink.Model.GetTypeInfo(property.Type).Type as INamedTypeSymbol;
        string confidence;
        if (setType is { TypeKind: not TypeKind.Error } && FrameworkApi.IsFrom(setType, FrameworkApi.EntityFramework)) confidence = Confidence.High;
        else if (setType is null or { TypeKind: TypeKind.Error }) confidence = Confidence.Medium;
        else return;
        var entityType = EntityTypeSyntax(property.Type);
        var entity = entityType is null ? null : _sink.Model.GetTypeInfo(entityType).Type;
        // A generic repository's `DbSet<T> DbSet => context.Set<T>()` (SimplCommerce) is no table of its own: T is
        // whatever entity the repository is made for.
        if (entity is ITypeParameterSymbol) return;
        if (entity is not null && entity.GetAttributes().Any(a => a.AttributeClass?.Name is "TableAttribute" or "Table")) return;
        _sink.Add(FactKinds.DbTable, id, property.Identifier.SpanStart, confidence, property.Identifier.ValueText,
            new FactDetail().Add("entity", _sink.IdOf(entity)).Add("source", "DbSet"));
    }

    /// <summary>The DbSets a context inherits: Identity's `IdentityDbContext&lt;AppUser, AppRole, ...&gt;` declares
    /// `DbSet&lt;TUser&gt; Users` in a package, which Kavita reads as `_context.Users`. One fact per inherited DbSet, at the
    /// context's name, under the property's own id (what references to it target), entity the type argument the
    /// context gives; a base of the solution's own only when its DbSet is of a type parameter (a concrete one has its
    /// fact at its declaration). `inherited: package`: which table it is, is the package's model's (Identity's
    /// OnModelCreating names them AspNetUsers...), which the index does not read, so the query layer lists one only when
    /// a ToTable or a model snapshot maps its entity; `inherited: solution`: the DbSet's name, as any DbSet.</summary>
    public void InheritedDbSets(ClassDeclarationSyntax cls, string? id)
    {
        if (_sink.Model.GetDeclaredSymbol(cls) is not INamedTypeSymbol context || !IsDbContext(context.BaseType)) return;
        var own = new HashSet<string>(context.GetMembers().OfType<IPropertySymbol>().Select(p => p.Name), StringComparer.Ordinal);
        for (var b = context.BaseType; b is not null && !IsDbContextItself(b); b = b.BaseType)
        {
            var fromSource = b.OriginalDefinition.Locations.Any(l => l.IsInSource);
            foreach (var property in b.GetMembers().OfType<IPropertySymbol>())
            {
                if (property.IsStatic || !own.Add(property.Name)) continue; // hidden by a closer declaration
                if (property.Type is not INamedTypeSymbol { Name: "DbSet", TypeArguments.Length: 1 } set
                    || !FrameworkApi.IsFrom(set, FrameworkApi.EntityFramework)) continue;
                var entity = set.TypeArguments[0];
                if (entity is ITypeParameterSymbol or { TypeKind: TypeKind.Error }) continue; // a generic context's
                if (fromSource && property.OriginalDefinition.Type is not INamedTypeSymbol { TypeArguments: [ITypeParameterSymbol] })
                    continue;
                if (entity.GetAttributes().Any(a => a.AttributeClass?.Name is "TableAttribute" or "Table")) continue;
                _sink.Add(FactKinds.DbTable, _sink.ExternalIdOf(property), cls.Identifier.SpanStart, Confidence.High, property.Name,
                    new FactDetail().Add("entity", _sink.ExternalIdOf(entity)).Add("source", "DbSet").Add("inherited", fromSource ? "solution" : "package")
                        .Add("context", id));
            }
        }
    }

    private static bool IsDbContextItself(INamedTypeSymbol type) =>
        type.Name == "DbContext" && FrameworkApi.IsFrom(type, FrameworkApi.EntityFramework);

    private static bool IsDbContext(INamedTypeSymbol? type)
    {
        for (var t = type; t is not null; t = t.BaseType)
        {
            if (IsDbContextItself(t)) return true;
        }
        return false;
    }

    /// <summary>`[Table("name", Schema = "s")]` on an entity class.</summary>
    public void TableAttribute(AttributeSyntax attr, string? id)
    {
        var (binding, symbol) = FrameworkApi.Classify(_sink.Model, attr, FrameworkApi.EntityFramework);
        if (binding == Binding.Other && symbol is IMethodSymbol ctor && FrameworkApi.IsIn(ctor.ContainingType, "System.ComponentModel.DataAnnotations.Schema"))
            binding = Binding.Framework;
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        var name = FactSyntax.ConstantString(_sink.Model, FactSyntax.PositionalArg(attr, 0)?.Expression);
        if (name is null) return;
        var schema = FactSyntax.ConstantString(_sink.Model, FactSyntax.NamedArg(attr, "Schema")?.Expression);
        _sink.Add(FactKinds.DbTable, id, attr.SpanStart, confidence, name,
            new FactDetail().Add("schema", schema).Add("entity", id).Add("source", "Table"));
    }

    public void Invocation(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (name == "ToTable") ToTable(inv, from);
        else if (name == "HasDefaultSchema") DefaultSchema(inv);
        else if (name is "RenameTable" or "DropTable") MigrationOperation(inv, name, from);
        else if (name == "Table") FluentMigratorOperation(inv, from);
        else if (name == "Sql") FluentMigratorSql(inv, from);
        else if (EfSqlMethods.Contains(name)) Sql(inv, FrameworkApi.EntityFramework, from, requireConnection: false);
        else if (DapperMethods.Contains(name)) Sql(inv, FrameworkApi.Dapper, from, requireConnection: true);
    }

    /// <summary>`modelBuilder.Entity&lt;T&gt;().ToTable("name", "schema")`, also inside `Entity&lt;T&gt;(b => b.ToTable(...))`
    /// and IEntityTypeConfiguration&lt;T&gt;.</summary>
    private void ToTable(InvocationExpressionSyntax inv, string? from)
    {
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.EntityFramework);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        var name = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "name")?.Expression);
        if (name is null) return;
        var schema = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 1, "schema")?.Expression);
        _sink.Add(FactKinds.DbTable, from, FactSyntax.Name(inv)!.SpanStart, confidence, name,
            new FactDetail().Add("schema", schema).Add("entity", _sink.IdOf(EntityOf(inv))).Add("source", "ToTable"));
    }

    /// <summary>`modelBuilder.HasDefaultSchema("billing")` in a context's OnModelCreating: the schema of every table its
    /// model maps without one (fullstackhero's BillingDbContext, whose `ToTable("Subscriptions")` is billing.Subscriptions).
    /// The fact's symbol is the context, which the query layer matches to its DbSets and the configurations it applies.
    /// A snapshot's or designer's own call (in BuildModel) is left out: their ToTable calls name the schema.</summary>
    private void DefaultSchema(InvocationExpressionSyntax inv)
    {
        if (inv.FirstAncestorOrSelf<MethodDeclarationSyntax>() is not { Identifier.ValueText: "OnModelCreating", Parent: TypeDeclarationSyntax type }
            || _sink.Model.GetDeclaredSymbol(type) is not INamedTypeSymbol context || !IsDbContext(context.BaseType)) return;
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.EntityFramework);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        var schema = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "schema")?.Expression);
        if (string.IsNullOrEmpty(schema)) return;
        _sink.Add(FactKinds.DbDefaultSchema, _sink.IdOf(context), FactSyntax.Name(inv)!.SpanStart, confidence, schema, new FactDetail());
    }

    /// <summary>A migration's `migrationBuilder.RenameTable(name: "Users", newName: "AspNetUsers")` (`renamed_to`) and
    /// `DropTable(name: "SyncHistory")`, in its Up: Down undoes them (every CreateTable's Down drops the table), and
    /// the model snapshot, not the migrations, says which tables exist. Kavita's renamed and dropped tables were
    /// listed as current.</summary>
    private void MigrationOperation(InvocationExpressionSyntax inv, string name, string? from)
    {
        if (inv.FirstAncestorOrSelf<MethodDeclarationSyntax>() is not { Identifier.ValueText: not "Down" }) return;
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.EntityFramework);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        var table = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "name")?.Expression);
        if (table is null) return;
        var schema = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 1, "schema")?.Expression);
        var detail = new FactDetail().Add("schema", schema).Add("source", name);
        if (name == "RenameTable")
        {
            var newName = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 2, "newName")?.Expression);
            var newSchema = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 3, "newSchema")?.Expression);
            if (newName is null && newSchema is null) return;
            detail.Add("renamed_to", newName ?? table).Add("new_schema", newSchema);
        }
        _sink.Add(FactKinds.DbTable, from, FactSyntax.Name(inv)!.SpanStart, confidence, table, detail);
    }

    /// <summary>FluentMigrator's `Rename.Table("Blacklist").To("Blocklist")` (an `.InSchema(s)` between) and
    /// `Delete.Table("NetImport")`, outside a Down, written as EF Core's RenameTable and DropTable are: Radarr's
    /// tables renamed long ago were listed as current, named only by its migrations' SQL. `Create.Table("History")`
    /// is a CreateTable: a table dropped and created again later is live.</summary>
    private void FluentMigratorOperation(InvocationExpressionSyntax inv, string? from)
    {
        var root = FactSyntax.LastName(FactSyntax.Receiver(inv));
        if (root is not ("Rename" or "Delete" or "Create")) return;
        if (inv.FirstAncestorOrSelf<MethodDeclarationSyntax>() is not { Identifier.ValueText: not "Down" }) return;
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, FrameworkApi.FluentMigrator);
        if (FrameworkApi.ConfidenceOf(binding) is not { } confidence) return;
        var table = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(inv.ArgumentList, 0, "tableName")?.Expression);
        if (table is null) return;
        string? schema = null, newName = null;
        for (ExpressionSyntax e = inv; e.Parent is MemberAccessExpressionSyntax ma && ma.Expression == e
                                       && ma.Parent is InvocationExpressionSyntax outer; e = outer)
        {
            var value = FactSyntax.ConstantString(_sink.Model, FactSyntax.Arg(outer.ArgumentList, 0)?.Expression);
            if (ma.Name.Identifier.ValueText == "InSchema") schema = value;
            else if (ma.Name.Identifier.ValueText == "To") newName = value;
        }
        if (root == "Rename" && newName is null) return;
        var detail = new FactDetail().Add("schema", schema)
            .Add("source", root switch { "Rename" => "RenameTable", "Delete" => "DropTable", _ => "CreateTable" });
        if (root == "Rename") detail.Add("renamed_to", newName);
        _sink.Add(FactKinds.DbTable, from, FactSyntax.Name(inv)!.SpanStart, confidence, table, detail);
    }

    /// <summary>FluentMigrator's `Execute.Sql("INSERT INTO ...")` outside a Down: the tables of its SQL (Radarr's
    /// migrations move data between tables this way).</summary>
    private void FluentMigratorSql(InvocationExpressionSyntax inv, string? from)
    {
        if (FactSyntax.LastName(FactSyntax.Receiver(inv)) != "Execute") return;
        if (inv.FirstAncestorOrSelf<MethodDeclarationSyntax>() is not { Identifier.ValueText: not "Down" }) return;
        Sql(inv, FrameworkApi.FluentMigrator, from, requireConnection: false);
    }

    private ITypeSymbol? EntityOf(InvocationExpressionSyntax toTable)
    {
        var receiver = FactSyntax.Receiver(toTable);
        if (receiver is not null && _sink.Model.GetTypeInfo(receiver).Type is INamedTypeSymbol
                { Name: "EntityTypeBuilder" or "OwnedNavigationBuilder", TypeArguments.Length: >= 1 } builder)
            return builder.TypeArguments[^1];
        foreach (var call in FactSyntax.ChainBelow(receiver))
        {
            if (EntityCall(call) is { } t) return t;
        }
        // `Entity<T>(b => b.ToTable(...))`: the call whose lambda argument holds this one.
        for (var n = toTable.Parent; n is not null and not MemberDeclarationSyntax; n = n.Parent)
        {
            if (n is not InvocationExpressionSyntax outer) continue;
            // An owned type's table in a snapshot (`b.OwnsMany("Ns.OrderLine", "Lines", b1 => b1.ToTable("OrderLines"))`)
            // is the owned type's, not the owner's.
            if (FactSyntax.NameText(outer) is "OwnsOne" or "OwnsMany")
                return FactSyntax.Name(outer) is GenericNameSyntax { TypeArgumentList.Arguments.Count: 1 } owned
                    ? _sink.Model.GetTypeInfo(owned.TypeArgumentList.Arguments[0]).Type
                    : MetadataType(outer);
            if (EntityCall(outer) is { } t) return t;
        }
        return null;
    }

    private ITypeSymbol? EntityCall(InvocationExpressionSyntax call)
    {
        if (FactSyntax.Name(call) is GenericNameSyntax { Identifier.ValueText: "Entity", TypeArgumentList.Arguments.Count: 1 } g)
            return _sink.Model.GetTypeInfo(g.TypeArgumentList.Arguments[0]).Type;
        // A migration's or model snapshot's `modelBuilder.Entity("SimplCommerce.Module.Catalog.Models.Product", b => ...)`:
        // the entity by its metadata name, when the compilation has it (SimplCommerce's tables had no entity otherwise:
        // its DbContext registers entities by reflection).
        return FactSyntax.NameText(call) == "Entity" ? MetadataType(call) : null;
    }

    /// <summary>The type a snapshot's call names by its first argument, a metadata name, when the compilation has it.</summary>
    private ITypeSymbol? MetadataType(InvocationExpressionSyntax call) =>
        call.ArgumentList.Arguments.Count > 0
        && FactSyntax.ConstantString(_sink.Model, call.ArgumentList.Arguments[0].Expression) is { } name
            ? _sink.Model.Compilation.GetTypeByMetadataName(MetadataName(name))
            : null;

    /// <summary>A snapshot names a generic entity in C# form, `Microsoft.AspNetCore.Identity.IdentityUserClaim&lt;int&gt;`
    /// (Identity's claims, logins and tokens): its definition's metadata name is `...IdentityUserClaim`1`.</summary>
    internal static string MetadataName(string name)
    {
        var open = name.IndexOf('<');
        if (open < 0 || !name.EndsWith('>')) return name;
        var (depth, arity) = (0, 1);
        foreach (var c in name.AsSpan(open + 1, name.Length - open - 2))
        {
            if (c == '<') depth++;
            else if (c == '>') depth--;
            else if (c == ',' && depth == 0) arity++;
        }
        return $"{name[..open]}`{arity}";
    }

    /// <summary>Raw SQL handed to EF Core (FromSqlRaw...) or Dapper (Query, Execute... on a connection).</summary>
    private void Sql(InvocationExpressionSyntax inv, string[] framework, string? from, bool requireConnection)
    {
        var sqlArg = FactSyntax.Arg(inv.ArgumentList, 0, "sql");
        if (sqlArg is null) return;
        var (binding, _) = FrameworkApi.Classify(_sink.Model, inv, framework);
        if (binding == Binding.Other) return;
        if (binding == Binding.Unbound && requireConnection && !LooksLikeConnection(FactSyntax.Receiver(inv))) return;
        EmitSql(sqlArg.Expression, FactSyntax.Name(inv)!.SpanStart, FrameworkApi.ConfidenceOf(binding)!, from);
    }

    public static bool IsRawSqlMethod(string name) => EfSqlMethods.Contains(name) || DapperMethods.Contains(name);

    /// <summary>How sure a call named like EF Core's or Dapper's raw SQL methods is one: null when it is not.</summary>
    public static string? RawSqlConfidence(SemanticModel model, InvocationExpressionSyntax inv, string name)
    {
        var dapper = DapperMethods.Contains(name);
        var (binding, _) = FrameworkApi.Classify(model, inv, dapper ? FrameworkApi.Dapper : FrameworkApi.EntityFramework);
        if (binding == Binding.Unbound && dapper && !LooksLikeConnection(FactSyntax.Receiver(inv))) return null;
        return FrameworkApi.ConfidenceOf(binding);
    }

    /// <summary>`command.CommandText = "..."` (also in an object initializer) on an ADO.NET command.</summary>
    public void CommandText(AssignmentExpressionSyntax assign, SimpleNameSyntax property, string? from)
    {
        if (CommandTextConfidence(_sink.Model, property) is { } confidence) EmitSql(assign.Right, property.SpanStart, confidence, from);
    }

    public static string? CommandTextConfidence(SemanticModel model, SimpleNameSyntax property) =>
        model.GetSymbolInfo(property).Symbol switch
        {
            IPropertySymbol p when IsDbCommand(p.ContainingType) => Confidence.High,
            null => Confidence.Medium,
            _ => null,
        };

    /// <summary>`new SqlCommand("...", connection)` and other DbCommand constructors.</summary>
    public void CommandCreation(ObjectCreationExpressionSyntax creation, string? from)
    {
        var sqlArg = FactSyntax.Arg(creation.ArgumentList, 0, "cmdText");
        if (sqlArg is null || CommandCreationConfidence(_sink.Model, creation) is not { } confidence) return;
        EmitSql(sqlArg.Expression, creation.Type.SpanStart, confidence, from);
    }

    public static string? CommandCreationConfidence(SemanticModel model, ObjectCreationExpressionSyntax creation) =>
        model.GetTypeInfo(creation).Type switch
        {
            { TypeKind: not TypeKind.Error } type when IsDbCommand(type) => Confidence.High,
            null or { TypeKind: TypeKind.Error } => Confidence.Medium,
            _ => null,
        };

    /// <summary>A call of the solution's own SQL helper (SqlFlows: a string parameter it makes a command's text or
    /// hands to Dapper), as Hangfire's `connection.Create("sp_getapplock", CommandType.StoredProcedure)`: the SQL of
    /// each such argument runs here, `through` the helper, confidence medium (the flow is the helper's).</summary>
    public void ThroughHelper(InvocationExpressionSyntax inv, string? from)
    {
        if (inv.ArgumentList.Arguments.Count == 0 || FactSyntax.NameText(inv) is not { } name) return;
        var cpu = Profile.Now(); // a part of the walk, shown apart by bench/index_split.py
        var called = SqlFlows.MayBe(_sink.Model.Compilation, name) ? _sink.Model.GetSymbolInfo(inv).Symbol as IMethodSymbol : null;
        var flows = called is { DeclaringSyntaxReferences.Length: 1 } ? SqlFlows.Of(called, _sink.Model.Compilation) : [];
        Profile.Lap("extract.walk.sql_flows", cpu);
        if (called is null || flows.Count == 0) return;
        var arguments = ConfigFlows.ArgumentsByParameter(inv, called);
        foreach (var ordinal in flows)
        {
            if (arguments.TryGetValue(ordinal, out var text))
                EmitSql(text, FactSyntax.Name(inv)!.SpanStart, Confidence.Medium, from, _sink.IdOf(ConfigFlows.Definition(called)));
        }
    }

    /// <summary>A method's SqlFlows as facts of its document (key `{pN}`, N the parameter's ordinal).</summary>
    public void Flows(MethodDeclarationSyntax method, string? id)
    {
        if (id is null || !method.ParameterList.Parameters.Any(p => SqlFlows.IsString(p.Type))
            || !SqlFlows.MayBe(_sink.Model.Compilation, method.Identifier.ValueText)) return;
        if (_sink.Model.GetDeclaredSymbol(method) is not IMethodSymbol symbol) return;
        foreach (var ordinal in SqlFlows.Of(symbol, _sink.Model.Compilation))
            _sink.Add(FactKinds.SqlFlow, id, method.Identifier.SpanStart, Confidence.High, $"{{p{ordinal}}}", new FactDetail());
    }

    private void EmitSql(ExpressionSyntax sqlExpression, int anchor, string confidence, string? from, string? through = null)
    {
        var emitted = new HashSet<(string?, string, bool)>();
        foreach (var (sql, inferred) in SqlTexts(sqlExpression))
        {
            var certainty = inferred ? Confidence.Medium : confidence;
            if (SqlTables.Procedure(sql) is var (procedureSchema, procedure))
            {
                if (emitted.Add((procedureSchema, procedure, true)))
                    _sink.Add(FactKinds.DbTable, from, anchor, certainty, procedure,
                        new FactDetail().Add("schema", procedureSchema).Add("source", "Sql").Add("object", "procedure").Add("through", through));
                continue;
            }
            foreach (var (schema, table) in SqlTables.Extract(sql))
            {
                if (emitted.Add((schema, table, false)))
                    _sink.Add(FactKinds.DbTable, from, anchor, certainty, table,
                        new FactDetail().Add("schema", schema).Add("source", "Sql").Add("through", through));
            }
        }
    }

    /// <summary>The SQL texts an expression at a sink may hold, `inferred` where the code only suggests it: a constant
    /// or interpolated string (a hole written `{expr}`: `[{schemaName}].Job` is table Job of a schema known at run
    /// time); a local's initializer and every value assigned to it (`string query; if (..) query = ..; else query =
    /// ..`); both branches of `?:`; and, inferred, `string.Format`'s format, and the string a lambda handed to a
    /// method of the solution returning a string builds: Hangfire's 79 SQL templates are
    /// `var query = _storage.GetQueryFromTemplate(static schemaName => $@"insert into [{schemaName}].Job ...")`, a
    /// cache that calls the lambda with the schema.</summary>
    private List<(string Sql, bool Inferred)> SqlTexts(ExpressionSyntax expression)
    {
        var found = new List<(string, bool)>();
        void Collect(ExpressionSyntax e, int depth, bool inferred)
        {
            e = FactSyntax.Unwrap(e);
            if (e is IdentifierNameSyntax local && _sink.Model.GetSymbolInfo(local).Symbol is ILocalSymbol { IsConst: false } symbol)
            {
                if (depth >= 3) return;
                foreach (var value in LocalValues(symbol)) Collect(value, depth + 1, inferred);
                return;
            }
            if (FactSyntax.ConstantString(_sink.Model, e, interpolated: true) is { } text)
            {
                found.Add((text, inferred));
                return;
            }
            if (depth >= 3) return;
            if (e is ConditionalExpressionSyntax choice)
            {
                Collect(choice.WhenTrue, depth + 1, inferred);
                Collect(choice.WhenFalse, depth + 1, inferred);
            }
            else if (e is InvocationExpressionSyntax call)
            {
                foreach (var built in FormatOf(call) is { } format ? [format] : TemplatesOf(call)) Collect(built, depth + 1, true);
            }
        }
        Collect(expression, 0, false);
        return found;
    }

    /// <summary>A local's initializer and the values simple assignments give it in its scope.</summary>
    private IEnumerable<ExpressionSyntax> LocalValues(ILocalSymbol local)
    {
        if (local.DeclaringSyntaxReferences is not [var reference]
            || reference.GetSyntax() is not VariableDeclaratorSyntax declarator || declarator.SyntaxTree != _sink.Model.SyntaxTree) yield break;
        if (declarator.Initializer?.Value is { } initial) yield return initial;
        var scope = declarator.FirstAncestorOrSelf<BlockSyntax>() ?? (SyntaxNode?)declarator.FirstAncestorOrSelf<MemberDeclarationSyntax>();
        if (scope is null) yield break;
        foreach (var assign in scope.DescendantNodes().OfType<AssignmentExpressionSyntax>())
        {
            if (assign.IsKind(Microsoft.CodeAnalysis.CSharp.SyntaxKind.SimpleAssignmentExpression)
                && assign.Left is IdentifierNameSyntax name && name.Identifier.ValueText == local.Name
                && SymbolEqualityComparer.Default.Equals(_sink.Model.GetSymbolInfo(name).Symbol, local))
                yield return assign.Right;
        }
    }

    /// <summary>`string.Format(CultureInfo.InvariantCulture, template, order)`: the format.</summary>
    private ExpressionSyntax? FormatOf(InvocationExpressionSyntax call)
    {
        if (_sink.Model.GetSymbolInfo(call).Symbol is not IMethodSymbol { Name: "Format", ContainingType.SpecialType: SpecialType.System_String } format)
            return null;
        var arguments = call.ArgumentList.Arguments;
        for (var i = 0; i < arguments.Count; i++)
        {
            if (FactSyntax.ParameterOf(format, arguments[i], i, 0) is { Name: "format" }) return arguments[i].Expression;
        }
        return null;
    }

    /// <summary>The strings lambda arguments build (either of `flag ? a => .. : b => ..`), when the call is of a method
    /// of the solution returning a string (a template cache: what it returns is the lambda's text, its parameters
    /// filled in at run time).</summary>
    private List<ExpressionSyntax> TemplatesOf(InvocationExpressionSyntax call)
    {
        var bodies = new List<ExpressionSyntax>();
        if (_sink.Model.GetSymbolInfo(call).Symbol is not IMethodSymbol { ReturnType.SpecialType: SpecialType.System_String } method
            || !method.Locations.Any(l => l.IsInSource)) return bodies;
        foreach (var argument in call.ArgumentList.Arguments)
        {
            var e = FactSyntax.Unwrap(argument.Expression);
            foreach (var lambda in e is ConditionalExpressionSyntax choice ? [choice.WhenTrue, choice.WhenFalse] : (ExpressionSyntax[])[e])
            {
                if (FactSyntax.Unwrap(lambda) is LambdaExpressionSyntax { ExpressionBody: { } body }
                    && _sink.Model.GetTypeInfo(body).Type?.SpecialType == SpecialType.System_String)
                    bodies.Add(body);
            }
        }
        return bodies;
    }

    private static TypeSyntax? EntityTypeSyntax(TypeSyntax type) => type switch
    {
        GenericNameSyntax g => g.TypeArgumentList.Arguments[0],
        QualifiedNameSyntax { Right: GenericNameSyntax g } => g.TypeArgumentList.Arguments[0],
        NullableTypeSyntax n => EntityTypeSyntax(n.ElementType),
        _ => null,
    };

    private static bool IsDbCommand(ITypeSymbol? type)
    {
        for (var t = type; t is not null; t = t.BaseType)
        {
            if (t is { Name: "DbCommand" } && FrameworkApi.IsIn(t, "System.Data.Common")) return true;
        }
        // A command typed as the interface itself (`IDbCommand cmd = conn.CreateCommand()`, the *arr migrations') too.
        return type is not null && type.AllInterfaces.Append(type as INamedTypeSymbol)
            .Any(i => i is { Name: "IDbCommand" } && FrameworkApi.IsIn(i, "System.Data"));
    }

    private static bool LooksLikeConnection(ExpressionSyntax? receiver) =>
        FactSyntax.NameContains(receiver, "conn") || FactSyntax.NameContains(receiver, "db");
}
