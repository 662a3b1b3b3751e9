using FluentMigrator;

namespace Web.Api.Data.Schema;

// Sonarr's FluentMigrator migrations: found by the runner's assembly scan (ScanIn), never named in code.
[Migration(1)]
public sealed class M001_AuditIndex : Migration
{
    public override void Up() => Execute.Sql("CREATE INDEX audit_at ON audit_log (at)");

    public override void Down() => Execute.Sql("DROP INDEX audit_at");
}
