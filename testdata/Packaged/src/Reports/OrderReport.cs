using System.Data;
using Dapper;

namespace Reports;

public class OrderReport(IDbConnection connection)
{
    public int CountOrders() => connection.ExecuteScalar<int>("select count(*) from Orders");
}
