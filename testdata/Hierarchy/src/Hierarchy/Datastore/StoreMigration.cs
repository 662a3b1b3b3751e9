namespace Hierarchy.Datastore;

// The *arr family's migration base: its migrations live in Datastore/Migration/ (singular), whose namespace hides
// FluentMigrator's Migration class from them.
public abstract class StoreMigration : FluentMigrator.Migration
{
    public override void Down() { }
}
