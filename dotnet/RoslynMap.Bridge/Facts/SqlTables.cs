using System.Text.RegularExpressions;

namespace RoslynMap.Bridge.Facts;

/// <summary>Table names in a SQL string: the identifier after FROM, JOIN, INTO, UPDATE and USING (PostgreSQL's
/// `DELETE FROM a USING b`, a MERGE's source; and each of a FROM's or USING's comma-separated list), with brackets/quotes stripped and a schema prefix split off. A regex, not a SQL parser.</summary>
internal static partial class SqlTables
{
    private const string Part = """(?:\[[^\]]+\]|"[^"]+"|`[^`]+`|[A-Za-z_][\w$#]*)""";

    // Not a clause: `IS [NOT] DISTINCT FROM x.y` is a comparison (BTCPay's `IS DISTINCT FROM subs.lockout_enabled` was
    // table lockout_enabled of schema subs); `FOR UPDATE SKIP LOCKED`, `FOR NO KEY UPDATE` lock rows and MySQL's
    // `ON DUPLICATE KEY UPDATE col = ..` sets columns.
    // `@from`, `:from` are parameters (Hangfire's `Score between @from and @to` was table `and`).
    [GeneratedRegex(@"(?<![@:$])\b(?<keyword>(?<!\bIS\s+(?:NOT\s+)?DISTINCT\s+)FROM|JOIN|INTO|USING|(?<!\b(?:FOR|KEY|ON|AFTER|BEFORE|OF|GRANT|SELECT,)\s+)UPDATE)\s+(?<name>" + Part + @"(?:\s*\.\s*" + Part + ")*)", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex TableRegex();

    // The next table of a FROM list (`FROM "Movies" m, "Credits" c`): after the table before it and its alias, if any.
    [GeneratedRegex(@"\G(?:\s+(?:AS\s+)?(?!(?:" + ClauseWords + @")\b)[A-Za-z_]\w*)?\s*,\s*(?<name>" + Part + @"(?:\s*\.\s*" + Part + ")*)",
        RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex ListedTableRegex();

    // Words that end a FROM list's table (no alias).
    private const string ClauseWords = "WHERE|JOIN|INNER|LEFT|RIGHT|FULL|CROSS|OUTER|NATURAL|ON|USING|GROUP|ORDER|HAVING|LIMIT"
        + "|OFFSET|UNION|EXCEPT|INTERSECT|WINDOW|FOR|WITH|SET|VALUES|RETURNING|FETCH|INTO|AND|OR|SELECT|FROM|PIVOT|UNPIVOT|TABLESAMPLE";

    [GeneratedRegex(@"^\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH|MERGE)\b", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex StatementRegex();

    // A statement where one may start, not only at the text's start: a batch may open with `SET XACT_ABORT ON;`,
    // `DECLARE @t TABLE (..);`, `BEGIN TRY` (Hangfire's templates). Not anywhere: DDL's `ON DELETE CASCADE ON UPDATE
    // CASCADE`, a trigger's `AFTER UPDATE ON t` and `GRANT SELECT, UPDATE ON t` are no statements of their own.
    [GeneratedRegex(@"(?:^|[;(]|\b(?:BEGIN|THEN|ELSE|AS|TRY|CATCH)\b)\s*(?:SELECT|INSERT|UPDATE|DELETE|MERGE|WITH)\b",
        RegexOptions.IgnoreCase | RegexOptions.CultureInvariant | RegexOptions.Multiline)]
    private static partial Regex DmlRegex();

    // SQL comments (`-- Update the counters` read as table `the`).
    [GeneratedRegex(@"--[^\r\n]*|/\*.*?\*/", RegexOptions.CultureInvariant | RegexOptions.Singleline)]
    private static partial Regex CommentRegex();

    private static string WithoutComments(string sql) => sql.Contains("--") || sql.Contains("/*") ? CommentRegex().Replace(sql, " ") : sql;

    // The alias a FROM or JOIN gives its table (`FROM [jobs].Job J`, `JOIN Queue AS q`): SQL Server's
    // `UPDATE J SET .. FROM [jobs].Job J` updates table Job, J being its alias.
    [GeneratedRegex(@"(?<![@:$])\b(?:FROM|JOIN)\s+" + Part + @"(?:\s*\.\s*" + Part + @")*\s+(?:AS\s+)?(?!(?:" + ClauseWords + @")\b)(?<alias>[A-Za-z_]\w*)",
        RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex AliasRegex();

    [GeneratedRegex(Part, RegexOptions.CultureInvariant)]
    private static partial Regex PartRegex();

    // Common table expressions (`WITH recent AS (...)`, `, totals AS (...)`) are not tables.
    [GeneratedRegex(@"(?:\bWITH(?:\s+RECURSIVE)?|,)\s*(?<name>[A-Za-z_]\w*)\s*(?:\([^)]*\)\s*)?AS\s*\(", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex CteRegex();

    // Words that can follow FROM/INTO/UPDATE without being a table (`DO UPDATE SET`, `FROM ONLY`).
    private static readonly HashSet<string> NotTables = new(StringComparer.OrdinalIgnoreCase)
    {
        "SET", "SELECT", "WHERE", "VALUES", "ONLY", "LATERAL", "UNNEST", "DUAL", "ON", "TOP",
    };

    // A stored procedure: the whole command text is one (schema-qualified) name, as Dapper and ADO.NET are given
    // with CommandType.StoredProcedure (bitwarden/server: "[dbo].[Cipher_ReadById]", $"[{Schema}].[User_Create]"),
    // or `EXEC[UTE] name ...` (EF Core's FromSqlRaw). A name part may be an interpolation hole (`{Schema}`).
    private const string NamePart = Part + @"|\{[^{}]+\}";

    [GeneratedRegex(@"^(?<exec>EXEC(?:UTE)?\s+)?(?<name>(?:" + NamePart + @")(?:\s*\.\s*(?:" + NamePart + @")){0,2})(?(exec)(?:[\s;]|$)|\s*;?\s*$)",
        RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex ProcedureRegex();

    [GeneratedRegex(NamePart, RegexOptions.CultureInvariant)]
    private static partial Regex NamePartRegex();

    // Statements of one word, which a command text may be without naming a procedure (`Execute("COMMIT")`).
    private static readonly HashSet<string> OneWordStatements = new(StringComparer.OrdinalIgnoreCase)
    {
        "COMMIT", "ROLLBACK", "BEGIN", "END", "VACUUM", "ANALYZE", "REINDEX", "CHECKPOINT", "GO", "SHUTDOWN",
    };

    public static bool LooksLikeSql(string text) => DmlRegex().IsMatch(WithoutComments(text));

    /// <summary>The procedure a command text runs: (schema or null, name); null when it is a statement, or when
    /// the name itself is only known at run time (`[{Table}_ReadById]`).</summary>
    public static (string? Schema, string Name)? Procedure(string text)
    {
        var m = ProcedureRegex().Match(text.Trim());
        if (!m.Success) return null;
        var parts = NamePartRegex().Matches(m.Groups["name"].Value).Select(p => p.Value.Trim('[', ']', '"', '`')).ToList();
        var name = parts[^1];
        if (name.Contains('{') || NotTables.Contains(name) || OneWordStatements.Contains(name) || StatementRegex().IsMatch(name))
            return null;
        var schema = parts.Count >= 2 && !parts[^2].Contains('{') ? parts[^2] : null;
        return (schema, name);
    }

    public static List<(string? Schema, string Table)> Extract(string sql)
    {
        var tables = new List<(string?, string)>();
        sql = WithoutComments(sql);
        if (!LooksLikeSql(sql)) return tables;
        var ctes = CteRegex().Matches(sql).Select(m => m.Groups["name"].Value).ToHashSet(StringComparer.OrdinalIgnoreCase);
        var aliases = AliasRegex().Matches(sql).Select(m => m.Groups["alias"].Value).ToHashSet(StringComparer.OrdinalIgnoreCase);
        foreach (Match m in TableRegex().Matches(sql))
        {
            var keyword = m.Groups["keyword"].Value.ToUpperInvariant();
            var name = m.Groups["name"];
            while (true)
            {
                // A name called right after FROM or JOIN (or a comma of a FROM list) is a table-valued function
                // (SQLite's json_each, OPENJSON, STRING_SPLIT, unnest...), not a table; after INTO, `(` opens its
                // column list.
                var end = name.Index + name.Length;
                var called = end < sql.Length && sql[end] == '(';
                if (called && keyword is "FROM" or "JOIN" or "USING") break;
                if (keyword == "FROM" && InFunctionArguments(sql, m.Index)) break;
                if (keyword == "UPDATE" && aliases.Contains(name.Value)) break;
                Add(tables, ctes, name.Value);
                // Old-style joins list more tables after FROM, comma-separated (and `DELETE .. USING a, b`).
                if (keyword is not ("FROM" or "USING") || ListedTableRegex().Match(sql, end) is not { Success: true } next) break;
                name = next.Groups["name"];
            }
        }
        return tables;
    }

    // Functions whose arguments take a FROM of their own: `EXTRACT(YEAR FROM d)`, `SUBSTRING(s FROM 2 FOR 3)`,
    // `TRIM(BOTH ' ' FROM s)`, `OVERLAY(s PLACING 'x' FROM 2)`.
    private static readonly HashSet<string> FromFunctions = new(StringComparer.OrdinalIgnoreCase)
    {
        "EXTRACT", "SUBSTRING", "SUBSTR", "TRIM", "OVERLAY",
    };

    /// <summary>Whether the FROM at `at` is inside the arguments of one of FromFunctions: the innermost parenthesis
    /// open before it follows such a name (a subquery's `(SELECT .. FROM t)` follows none).</summary>
    private static bool InFunctionArguments(string sql, int at)
    {
        var depth = 0;
        for (var i = at - 1; i >= 0; i--)
        {
            if (sql[i] == ')') depth++;
            else if (sql[i] == '(' && depth-- == 0)
            {
                var end = i;
                while (end > 0 && char.IsWhiteSpace(sql[end - 1])) end--;
                var start = end;
                while (start > 0 && (char.IsLetterOrDigit(sql[start - 1]) || sql[start - 1] == '_')) start--;
                return FromFunctions.Contains(sql[start..end]);
            }
        }
        return false;
    }

    private static void Add(List<(string?, string)> tables, HashSet<string> ctes, string name)
    {
        var quoted = PartRegex().Matches(name).Select(p => p.Value).ToList();
        var parts = quoted.Select(p => p.Trim('[', ']', '"', '`')).ToList();
        var table = parts[^1];
        // A quoted hole of an interpolated string (Sonarr's `FROM "{_table}"`) is a table chosen at run time; a quoted
        // keyword is a name (Hangfire's `[{schemaName}].[Set]`).
        if (table.Contains('{') || (NotTables.Contains(table) && quoted[^1] == table) || (parts.Count == 1 && ctes.Contains(table))) return;
        var schema = parts.Count >= 2 && !parts[^2].Contains('{') ? parts[^2] : null;
        if (!tables.Contains((schema, table))) tables.Add((schema, table));
    }
}
