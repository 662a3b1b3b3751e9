using System.Data;
using Dapper;

namespace Web.Api.Data;

/// <summary>SQLite's own tables and table-valued pragmas are not tables of the application; nor is a table the code
/// names at run time (Sonarr's `FROM "{_table}"`).</summary>
public sealed class SqliteMaintenance(IDbConnection connection)
{
    public IEnumerable<string> Columns() => connection.Query<string>("SELECT name FROM pragma_table_xinfo('orders')");

    public int ResetIds() => connection.Execute("DELETE FROM sqlite_sequence WHERE name = 'orders'");

    public int Purge(string table) => connection.Execute($"DELETE FROM \"{table}\" WHERE id < 0");
}
