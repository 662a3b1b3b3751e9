using FluentMigrator;

namespace Hierarchy.Datastore.Migration;

[Migration(2)]
public sealed class rename_tables : StoreMigration
{
    public override void Up()
    {
        Rename.Table("Blacklist").To("Blocklist");
        Rename.Table("Profiles").InSchema("main").To("QualityProfiles");
        Delete.Table("NetImport");
    }

    // Undoes Up: no history of the schema.
    public override void Down()
    {
        Rename.Table("Blocklist").To("Blacklist");
    }
}
