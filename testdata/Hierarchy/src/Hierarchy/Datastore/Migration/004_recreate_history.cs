using FluentMigrator;

namespace Hierarchy.Datastore.Migration;

// Radarr's way to reshape a table: drop it, create it anew (Create.Table) and fill it with Execute.Sql. History is
// live (it was listed as dropped), and the SQL's FROM names Blocklist.
[Migration(4)]
public sealed class recreate_history : StoreMigration
{
    public override void Up()
    {
        Delete.Table("History");
        Create.Table("History").WithColumn("Id").AsInt32().PrimaryKey().WithColumn("MovieId").AsInt32();
        Execute.Sql("INSERT INTO \"History\" (\"MovieId\") SELECT \"MovieId\" FROM \"Blocklist\"");
        // DDL names no table by its ON UPDATE (it read as table CASCADE), nor does a comment (table `the`).
        Execute.Sql("ALTER TABLE \"History\" ADD CONSTRAINT FK_Movie FOREIGN KEY (\"MovieId\") REFERENCES \"Movies\" (\"Id\") ON DELETE CASCADE ON UPDATE CASCADE");
        Execute.Sql("-- Update the history\nUPDATE \"History\" SET \"MovieId\" = 0 WHERE \"MovieId\" IS NULL");
    }

    public override void Down()
    {
        Execute.Sql("DELETE FROM \"Archive\"");
    }
}
