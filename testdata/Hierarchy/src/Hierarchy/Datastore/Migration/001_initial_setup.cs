using System.Data;
using Dapper;
using FluentMigrator;

namespace Hierarchy.Datastore.Migration;

[Migration(1)]
public sealed class initial_setup : StoreMigration
{
    public override void Up()
    {
        Create.Table("Blacklist").WithColumn("Id").AsInt32().PrimaryKey().WithColumn("Title").AsString();
        Create.Table("NetImport").WithColumn("Id").AsInt32().PrimaryKey();
        Execute.WithConnection(Seed);
    }

    private static void Seed(IDbConnection conn, IDbTransaction tran)
    {
        conn.Execute("INSERT INTO \"Blacklist\" (\"Title\") VALUES ('none')", transaction: tran);
        conn.Execute("UPDATE \"Config\" SET \"Value\" = 'on' WHERE \"Key\" = 'seeded'", transaction: tran);
        using var cmd = conn.CreateCommand();
        cmd.Transaction = tran;
        cmd.CommandText = "SELECT \"Id\" FROM \"Profiles\" JOIN \"NetImport\" ON \"NetImport\".\"Id\" = \"Profiles\".\"Id\"";
        cmd.ExecuteNonQuery();
    }
}
