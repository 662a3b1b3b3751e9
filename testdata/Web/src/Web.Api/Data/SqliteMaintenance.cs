using System.Data;
using Dapper;

namespace Web.Api.Data;

/// <summary>SQLite's own tables and table-valued pragmas are not tables of the application.</summary>
public sealed class SqliteMaintenance(IDbConnection connection)
{
    public IEnumerable<string> Columns() => connection.Query<string>("SELECT name FROM pragma_table_xinfo('orders')");

    public int ResetIds() => connection.Execute("DELETE FROM sqlite_sequence WHERE name = 'orders'");
}
