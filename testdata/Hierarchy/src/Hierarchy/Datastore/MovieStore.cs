using System.Data;
using Dapper;

namespace Hierarchy.Datastore;

// Raw SQL of the live code. SQLite's json_each and json_tree are table-valued functions, not tables; a column list
// right after INTO is no call.
public sealed class MovieStore(IDbConnection conn)
{
    public IEnumerable<int> Tagged(int tag) => conn.Query<int>(
        "SELECT \"Movies\".\"Id\" FROM \"Movies\", json_each(\"Movies\".\"Tags\") WHERE json_each.\"value\" = @tag",
        new { tag });

    public IEnumerable<string> Values(string json) => conn.Query<string>("SELECT \"value\" FROM json_each(@json)", new { json });

    public IEnumerable<string> Keys(string json) =>
        conn.Query<string>("SELECT t.\"key\" FROM \"Movies\" m JOIN json_tree(m.\"Tags\") t ON 1 = 1", new { json });

    public int Forget(int id) => conn.Execute("DELETE FROM \"Blocklist\" WHERE \"MovieId\" = @id", new { id });

    public int AddProfile(string name) => conn.Execute("INSERT INTO \"QualityProfiles\"(\"Name\") VALUES (@name)", new { name });

    // An old-style join lists its tables after FROM, comma-separated, each with or without an alias.
    public IEnumerable<string> Credited() => conn.Query<string>(
        "SELECT m.\"Title\" FROM \"Movies\" m, \"Credits\" AS c, main.\"People\" WHERE c.\"MovieId\" = m.\"Id\" ORDER BY m.\"Title\", c.\"Id\"");

    // BTCPay's lockout sync: `IS DISTINCT FROM subs.lockout_enabled` compares; it is no FROM of a table (subs is a CTE).
    public int SyncLockouts(IDbConnection db)
    {
        using var cmd = db.CreateCommand();
        cmd.CommandText = """
            WITH subs AS (SELECT user_id, NOT active AS lockout_enabled FROM subscribers)
            UPDATE "Users" SET "LockoutEnabled" = subs.lockout_enabled
            FROM subs WHERE "Users"."Id" = subs.user_id
              AND "Users"."LockoutEnabled" IS DISTINCT FROM subs.lockout_enabled
              AND "Users"."Email" IS NOT DISTINCT FROM subs.email
            """;
        return cmd.ExecuteNonQuery();
    }

    // Functions taking a FROM of their own, and row locks: none names a table but "Grabs" and "Queue".
    public IEnumerable<int> Years() => conn.Query<int>(
        "SELECT EXTRACT(YEAR FROM added), SUBSTRING(title FROM 2 FOR 3), TRIM(BOTH ' ' FROM title) FROM \"Grabs\"");

    public int Take() => conn.ExecuteScalar<int>(
        "SELECT id FROM \"Queue\" WHERE (SELECT EXTRACT(EPOCH FROM queued_at)) > 0 FOR UPDATE SKIP LOCKED");

    // PostgreSQL's `DELETE .. USING` and a MERGE's source name tables; `JOIN .. USING ("MovieId")` names a column.
    public int Prune() => conn.Execute(
        "DELETE FROM \"Grabs\" g USING \"Blocklist\" b, \"Pending\" WHERE g.\"MovieId\" = b.\"MovieId\"");

    public int Stage() => conn.Execute(
        "MERGE INTO \"Credits\" AS c USING \"StagedCredits\" AS s ON c.\"Id\" = s.\"Id\" WHEN MATCHED THEN UPDATE SET \"Role\" = s.\"Role\"");

    public IEnumerable<int> Shared() => conn.Query<int>("SELECT \"Id\" FROM \"Movies\" JOIN \"Credits\" USING (\"MovieId\")");
}

// Hangfire's storage: SQL templates written in a lambda handed to a schema cache, the text reaching Dapper through a
// local; and the solution's own command helper, whose `text` is the command's CommandText.
public sealed class JobStorage
{
    private readonly System.Collections.Concurrent.ConcurrentDictionary<Func<string, string>, string> _templates = new();

    public string SchemaName { get; } = "jobs";

    internal string Sql(Func<string, string> template) => _templates.GetOrAdd(template, t => t(SchemaName));
}

internal static class CommandHelper
{
    public static IDbCommand Create(this IDbConnection connection, string text, CommandType type = CommandType.Text)
    {
        var command = connection.CreateCommand();
        command.CommandType = type;
        command.CommandText = text;
        return command;
    }
}

public sealed class JobRepository(JobStorage storage, IDbConnection connection)
{
    public int DeleteParameters(long id)
    {
        var sql = storage.Sql(static schema => $"DELETE FROM [{schema}].JobParameter WHERE JobId = @id");
        return connection.Execute(sql, new { id });
    }

    public int Requeue(long id, bool front)
    {
        string sql;
        if (front) sql = storage.Sql(static schema => $"UPDATE [{schema}].JobQueue SET FetchedAt = NULL WHERE JobId = @id");
        else sql = "DELETE FROM [jobs].[JobQueue] WHERE JobId = @id";
        return connection.Execute(sql, new { id });
    }

    public IEnumerable<string> Members(string order) => connection.Query<string>(string.Format(
        System.Globalization.CultureInfo.InvariantCulture, storage.Sql(static schema => $"SELECT Value FROM [{schema}].[Set] WHERE Score BETWEEN @from AND @to ORDER BY Score {{0}}"), order));

    public int Lock()
    {
        using var command = connection.Create("sp_getapplock", CommandType.StoredProcedure);
        var expire = storage.Sql(static schema => $"UPDATE J SET ExpireAt = NULL FROM [{schema}].Job J WHERE J.Id = @id");
        using var persist = connection.Create(expire);
        using var servers = connection.Create("SELECT COUNT(*) FROM [jobs].[Server]");
        return command.ExecuteNonQuery() + persist.ExecuteNonQuery() + servers.ExecuteNonQuery();
    }

    public int Count(bool limited) => connection.ExecuteScalar<int>(storage.Sql(limited
        ? static schema => $"SELECT COUNT(*) FROM (SELECT TOP (@limit) Id FROM [{schema}].State) AS s"
        : static schema => $"SELECT COUNT(*) FROM [{schema}].State"));
}
