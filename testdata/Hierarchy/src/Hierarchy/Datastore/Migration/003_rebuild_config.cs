using FluentMigrator;

namespace Hierarchy.Datastore.Migration;

// SQLite's way to change a table: build a new one, drop the old, rename the new to the old name. Config is live
// afterwards (its last mention drops it, but a later line renames Config_new to it).
[Migration(3)]
public sealed class rebuild_config : StoreMigration
{
    public override void Up()
    {
        Delete.Table("Config");
        Rename.Table("Config_new").To("Config");
    }

    public override void Down()
    {
    }
}
