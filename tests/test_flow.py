"""A feature end to end on testdata/Flow (issue 13): traces through DI registrations (an open generic
repository), mediator requests into their handlers, noise dropped and stops explained; @inject and
tag-helper links as references; package throw helpers; library configuration keys per host."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

CREATE = ("M:Flow.Web.OrderEndpoints.Create(Flow.Core.IMediator,Flow.Web.CreateOrderRequest,"
          "System.Threading.CancellationToken)")
HANDLE = "M:Flow.Core.CreateOrderHandler.Handle(Flow.Core.CreateOrderCommand,System.Threading.CancellationToken)"
NULL_OR_EMPTY = ("M:Ardalis.GuardClauses.GuardClauseExtensions.NullOrEmpty(Ardalis.GuardClauses.IGuardClause,"
                 "System.String,System.String,System.String,System.Func{System.Exception})")
ADD = "M:Flow.Core.IRepository`1.AddAsync(`0,System.Threading.CancellationToken)"
LIST = "M:Flow.Core.IRepository`1.ListAsync(System.Threading.CancellationToken)"
# Controllers/Rules.cs: public methods MVC takes for no action ([NonAction], protected, static, generic, Dispose).
CONTROLLERS = "M:Flow.Web.Controllers."
RULES_NON_ACTIONS = [f"{CONTROLLERS}RuleControllerBase.Render(System.Int64)", f"{CONTROLLERS}RuleControllerBase.Back",
                     f"{CONTROLLERS}ServerRulesController.Shared", f"{CONTROLLERS}ServerRulesController.Typed``1",
                     f"{CONTROLLERS}ServerRulesController.Dispose"]


@pytest.fixture(scope="module")
def flow(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Flow", tmp_path_factory, home)


def _nodes(env: dict[str, Any]) -> list[tuple[int, str, str | None, str | None]]:
    return [(n["depth"], n["symbol_id"], n["from"]["kind"], n["from"].get("via")) for n in env["data"]["nodes"]]


def test_trace_follows_the_mediator_into_handlers_and_di_into_registered_implementations(
        flow: McpServerProcess) -> None:
    env = flow.call("graph_trace_feature", {"entry_point": "POST /orders", "depth": 4})
    assert env["data"]["root"]["symbol_id"] == CREATE
    assert _nodes(env) == [
        (1, "M:Flow.Core.CreateOrderCommand.#ctor(System.String,System.Int32)", "Instantiate", None),
        (1, "M:Flow.Core.IMediator.Send``1(Flow.Core.IRequest{``0},System.Threading.CancellationToken)", "Call", None),
        # DI runs every request through ValidationBehavior<,> (an IPipelineBehavior<,> registration) first
        (1, "M:Flow.Core.ValidationBehavior`2.Handle(`0,Flow.Core.RequestHandlerDelegate{`1},"
            "System.Threading.CancellationToken)", "Behavior", "T:Flow.Core.CreateOrderCommand"),
        (1, HANDLE, "Mediator", "T:Flow.Core.CreateOrderCommand"),
        (2, "M:Flow.Core.OrderRules.Reject(System.String)", "Call", None),
        (2, ADD, "Call", None),
        # InMemoryRepository<T> implements it too, but DI registers EfRepository<> only.
        (2, "M:Flow.Data.EfRepositoryBase`1.AddAsync(`0,System.Threading.CancellationToken)", "Dispatch", ADD),
        (2, "M:Flow.Core.OrderPlaced.#ctor(System.Int32)", "Instantiate", None),
        (2, "M:Flow.Core.IMediator.Publish(Flow.Core.INotification,System.Threading.CancellationToken)", "Call", None),
        (2, "M:Flow.Core.INoticeSender.SendAsync(System.String)", "Call", None),
        (2, "M:Flow.Core.OrderPlacedAudit.Handle(Flow.Core.OrderPlaced,System.Threading.CancellationToken)",
         "Mediator", "T:Flow.Core.OrderPlaced"),
        (3, "M:Flow.Core.OrderRules.Fail(System.String)", "Call", None),
    ]
    registered = [n["symbol_id"] for n in env["data"]["nodes"] if n.get("di_registered")]
    assert registered == ["M:Flow.Data.EfRepositoryBase`1.AddAsync(`0,System.Threading.CancellationToken)"]
    stops = env["data"]["stops"]
    # Property reads of the request DTOs, writes of Order's properties, the implicit Order constructor.
    assert stops["noise_dropped"] == 8
    assert stops["by_reason"] == {"no_implementation": 1, "external": 7}
    assert stops["places"] == [{"reason": "no_implementation", "from": HANDLE, "file": "src/Flow.Core/Orders.cs",
                                "at": "M:Flow.Core.INoticeSender.SendAsync(System.String)", "line": 37}]
    save = "M:Microsoft.EntityFrameworkCore.DbContext.SaveChangesAsync(System.Threading.CancellationToken)"
    assert [e["target"] for e in stops["external"][:2]] == [NULL_OR_EMPTY, save]
    assert env["answer"].endswith("Stopped: 1 no_implementation, 7 external.")


def test_trace_reaches_the_table_of_an_open_generic_repository_and_stops_at_the_depth_limit(
        flow: McpServerProcess) -> None:
    env = flow.call("graph_trace_feature", {"entry_point": "GET /catalog", "depth": 3})
    assert _nodes(env) == [
        (1, "M:Flow.Core.ICatalogService.ListAsync(System.Threading.CancellationToken)", "Call", None),
        (1, "M:Flow.Core.CatalogService.ListAsync(System.Threading.CancellationToken)", "Dispatch",
         "M:Flow.Core.ICatalogService.ListAsync(System.Threading.CancellationToken)"),
        (2, LIST, "Call", None),
        (2, "M:Flow.Data.EfRepository`1.ListAsync(System.Threading.CancellationToken)", "Dispatch", LIST),
    ]
    assert [n.get("type_arguments") for n in env["data"]["nodes"]][2:] == [["T:Flow.Core.CatalogItem"]] * 2
    # The entity's table is Catalog (ToTable), not the DbSet's name CatalogItems.
    assert env["data"]["tables"] == [{"table": "Catalog", "via": LIST, "entity": "T:Flow.Core.CatalogItem",
                                      "inferred": "type_argument"}]
    stops = env["data"]["stops"]
    assert stops["noise_dropped"] == 2  # i.Price, i.Name in the LINQ lambdas (the LINQ calls are external)
    assert stops["by_reason"] == {"external": 6}
    shallow = flow.call("graph_trace_feature", {"entry_point": "POST /Orders/Create", "depth": 2})
    assert shallow["data"]["stops"]["by_reason"] == {"no_implementation": 1, "depth_limit": 1, "external": 2}
    assert shallow["data"]["stops"]["places"][1] == {"reason": "depth_limit",
                                                     "at": "M:Flow.Core.OrderRules.Reject(System.String)",
                                                     "depth": 2, "solution_calls": 1}
    # A request held in a variable is followed too.
    assert (1, HANDLE, "Mediator", "T:Flow.Core.CreateOrderCommand") in _nodes(shallow)


def test_base_constructor_calls_are_noise(flow: McpServerProcess) -> None:
    env = flow.call("graph_trace_feature", {
        "entry_point": "M:Flow.Core.CachedCatalogService.#ctor(Flow.Core.IRepository{Flow.Core.CatalogItem},"
                       "Microsoft.Extensions.Configuration.IConfiguration)", "depth": 2})
    assert env["data"]["nodes"] == []
    assert env["data"]["stops"] == {"by_reason": {}, "places": [], "noise_dropped": 1}


def test_package_throw_helpers_and_exceptions_through_calls_on_the_card(flow: McpServerProcess) -> None:
    listed = flow.call("surfaces_list", {"kind": "exceptions", "project": "Flow.Core"})
    assert [(e["exception"], e.get("form"), e.get("inferred"), e["confidence"], e["line"])
            for e in listed["data"]["exceptions"]] == [
        # Two at one place: in the order the helper's documentation names them.
        ("T:System.ArgumentNullException", "helper", "documented", "low", 31),
        ("T:System.ArgumentException", "helper", "documented", "low", 31),
        ("T:System.InvalidOperationException", "throw", None, "high", 55),
    ]
    assert {e.get("via") for e in listed["data"]["exceptions"][:2]} == {NULL_OR_EMPTY}
    card = flow.call("symbols_get_card", {"symbol_id": HANDLE})["data"]
    assert card["thrown_exceptions"] == ["T:System.ArgumentException", "T:System.ArgumentNullException",
                                         "T:System.InvalidOperationException"]
    assert card["exception_paths"] == [{
        "exception": "T:System.InvalidOperationException",
        "path": [HANDLE, "M:Flow.Core.OrderRules.Reject(System.String)", "M:Flow.Core.OrderRules.Fail(System.String)"],
        "file": "src/Flow.Core/Orders.cs", "line": 55, "throw_helper": "only_throws"}]
    reject = flow.call("symbols_get_card", {"symbol_id": "M:Flow.Core.OrderRules.Reject(System.String)"})["data"]
    assert [(f["kind"], f["key"]) for f in reject["facts"]] == [("AlwaysThrows", "does_not_return")]


def test_refs_find_includes_inject_uses_and_tag_helper_links(flow: McpServerProcess) -> None:
    env = flow.call("refs_find", {"symbol_id": "T:Flow.Core.ICatalogService"})
    assert env["answer"] == "6 references to Flow.Core.ICatalogService (5 TypeRef, 1 Implementation)."
    markup = [(r["file"], r["line"], r["col"], r["kind"], r.get("markup")) for r in env["data"]["references"]
              if r.get("markup")]
    assert markup == [("src/Flow.Web/Components/Prices.razor", 2, 9, "TypeRef", "inject"),
                      ("src/Flow.Web/Pages/Catalog.cshtml", 3, 9, "TypeRef", "inject"),
                      ("src/Flow.Web/Views/Home/Index.cshtml", 1, 9, "TypeRef", "inject")]
    about = flow.call("refs_find", {"symbol_id": "M:Flow.Web.Controllers.HomeController.About"})
    assert [(r["file"], r["line"], r["kind"], r["link"]) for r in about["data"]["references"]] == [
        ("src/Flow.Web/Pages/Catalog.cshtml", 7, "Link", "Home/About"),
        ("src/Flow.Web/Views/Home/Index.cshtml", 2, "Link", "Home/About")]  # asp-action in Views/Home
    page = flow.call("refs_find", {"symbol_id": "T:Flow.Web.Pages.Orders.CreateModel"})
    assert [(r["file"], r["line"], r["link"]) for r in page["data"]["references"]] == [
        ("src/Flow.Web/Pages/Catalog.cshtml", 6, "/Orders/Create")]
    only_calls = flow.call("refs_find", {"symbol_id": "T:Flow.Core.ICatalogService", "kind": ["Implementation"]})
    assert only_calls["data"]["by_kind"] == [{"kind": "Implementation", "count": 1}]


def test_library_config_keys_are_checked_against_the_hosts_that_reference_it(flow: McpServerProcess) -> None:
    env = flow.call("surfaces_list_config_keys", {})
    assert [(k["key"], k["status"], k.get("undefined_in"), k["projects"]) for k in env["data"]["keys"]] == [
        ("ASPNETCORE_ENVIRONMENT", "read_by_framework", None, ["Flow.Tool"]),  # docker-compose sets it for the host
        # Handed on whole (to BlobClient's constructor): every key under it is used.
        ("Blob", "used", None, ["Flow.Other"]),
        ("Blob:Bucket", "used", None, ["Flow.Other"]),
        ("Caching", "used", None, ["Flow.Other"]),  # `"Caching": {}`: empty, but there
        # Flow.Core is loaded by Flow.Web (defines it) and Flow.Tool (does not), but only Flow.Web's code makes the
        # CatalogService that reads it (its DI registration names the type): Flow.Tool does not lack it. Flow.Core's
        # launch profile makes the library no host lacking it (RockPaperOrleans' Infrastructure library).
        ("Catalog:PageSize", "used", None, ["Flow.Core", "Flow.Web"]),
        # Flow.Tool links Flow.Web's appsettings.Development.json in (test_an_appsettings_file_linked_...).
        ("ConnectionStrings:Flow", "used", None, ["Flow.Tool", "Flow.Web"]),
        ("EventBus:Host", "used", None, ["Flow.Tool"]),
        ("Features:Beta", "defined_but_unused", None, ["Flow.Web"]),
        # Read through ISettingsReader (Flow.Core), implemented in Flow.Data: Flow.Web's call, never Flow.Plugin's,
        # which sees no implementation (test_keys_read_through_an_interface_implemented_in_another_project).
        ("Flow:RateLimit", "used_but_undefined", ["Flow.Web"], ["Flow.Web"]),
        ("GITHUB_ACTIONS", "used", None, ["Flow.Tool"]),  # set by the CI service (test_an_environment_variable_...)
        ("HOME", "used", None, ["Flow.Tool"]),  # set by the operating system
        ("Logging:LogLevel:Default", "read_by_framework", None, ["Flow.Web"]),
        ("Other:Name", "used", None, ["Flow.Other"]),
        # Set by docker-compose for the service built from the top Dockerfile, which publishes Flow.Other's project
        # (Blogifier's Blogifier__Redis was used_but_undefined: no project's folder holds that Dockerfile).
        ("Other:Region", "used", None, ["Flow.Other"]),
        # Blogifier: a section read only for its children (`store.GetValue<string>("Provider")`, `store["Path"]`) uses
        # them, not Store:Salt, which nothing reads (Blogifier:DemoMode and Salt were "used" with no usage).
        ("Store", "used", None, ["Flow.Other"]),
        ("Store:Path", "used", None, ["Flow.Other"]),
        ("Store:Provider", "used", None, ["Flow.Other"]),
        ("Store:Salt", "defined_but_unused", None, ["Flow.Other"]),
        # Read with Environment.GetEnvironmentVariable, set by docker-compose.yml (test_an_environment_variable_...).
        ("Tests:Timeout", "used", None, ["Flow.Tool"]),
        ("TESTS_BROWSER", "used_but_undefined", ["Flow.Tool"], ["Flow.Tool"]),
        ("TESTS_POSTGRES", "used", None, ["Flow.Tool"]),
        # docker-compose's Tool_Tool__Batch, for Flow.Tool's AddEnvironmentVariables("Tool_") (test_docker_compose_...).
        ("Tool:Batch", "used", None, ["Flow.Tool"]),
        ("Tool:Mode", "used", None, ["Flow.Tool"]),
        # BlobClient's `section["Bucket"]`, under the section its caller hands it (Blogifier's StorageMinioProvider
        # reading BucketName, Endpoint... were six root keys used_but_undefined).
        ('{$"Flow:{name}"}', "dynamic", None, ["Flow.Data"]),  # the implementation's own read, of its parameter
        ("{section}:Bucket", "dynamic", None, ["Flow.Other"]),
    ]
    web = flow.call("surfaces_list_config_keys", {"project": "Flow.Web"})
    assert [(k["key"], k["status"]) for k in web["data"]["keys"]] == [
        ("Catalog:PageSize", "used"), ("ConnectionStrings:Flow", "used"), ("Features:Beta", "defined_but_unused"),
        ("Flow:RateLimit", "used_but_undefined"), ("Logging:LogLevel:Default", "read_by_framework"),
        ('{$"Flow:{name}"}', "dynamic")]  # Flow.Data's, which Flow.Web loads


def test_an_appsettings_file_linked_into_a_project_defines_its_keys_there(flow: McpServerProcess) -> None:
    """fullstackhero's DbMigrator links the API's appsettings.json
    (`<None Include="..\\FSH.Starter.Api\\appsettings.json" Link="appsettings.json" />`) and runs on it: ~100 keys
    were undefined for it, as a file counted only for the project whose folder holds it. Flow.Tool links Flow.Web's
    appsettings.Development.json, which alone defines the connection string it reads: defined for Flow.Tool too, the
    place saying the name it is linked as."""
    keys = flow.call("surfaces_list_config_keys", {"key_filter": "ConnectionStrings:Flow"})["data"]["keys"]
    assert [(k["key"], k["status"], k.get("undefined_in"), k["defined_in"]) for k in keys] == [
        ("ConnectionStrings:Flow", "used", None, [
            {"file": "src/Flow.Web/appsettings.Development.json", "line": 3, "project": "Flow.Web",
             "environment": "Development"},
            {"file": "src/Flow.Web/appsettings.Development.json", "line": 3, "project": "Flow.Tool",
             "environment": "Development", "link": "appsettings.Development.json"},
            {"file": "src/Flow.Web/appsettings.json", "line": 8, "project": "Flow.Web"}])]
    tool = flow.call("surfaces_list_config_keys", {"project": "Flow.Tool", "key_filter": "ConnectionStrings"})
    assert [(k["key"], k["status"], k["defined_in"]) for k in tool["data"]["keys"]] == [
        ("ConnectionStrings:Flow", "used", [{"file": "src/Flow.Web/appsettings.Development.json", "line": 3,
                                            "environment": "Development", "link": "appsettings.Development.json"}])]


def test_docker_compose_environment_defines_keys_for_the_project_its_service_builds(flow: McpServerProcess) -> None:
    """`EventBus__Host=rabbitmq` in docker-compose.override.yml, for the service built from src/Flow.Tool/Dockerfile
    (joined by name with docker-compose.yml): EventBus:Host is defined for Flow.Tool. The database image's
    POSTGRES_PASSWORD and the host's ASPNETCORE_ENVIRONMENT are not the solution's configuration; the host's logging
    reads the Logging section, and the host its ASPNETCORE_ variables."""
    keys = {k["key"]: k for k in flow.call("surfaces_list_config_keys", {"project": "Flow.Tool"})["data"]["keys"]}
    assert keys["EventBus:Host"]["defined_in"] == [
        {"file": "docker-compose.override.yml", "line": 6, "source": "docker_compose", "service": "tool"}]
    other = flow.call("surfaces_list_config_keys", {"key_filter": "Other:Region"})["data"]["keys"]
    assert [(k["status"], k["defined_in"]) for k in other] == [
        ("used", [{"file": "docker-compose.override.yml", "line": 12, "source": "docker_compose", "service": "other"}])]
    assert "POSTGRES_PASSWORD" not in keys
    logging = flow.call("surfaces_list_config_keys", {"status": "read_by_framework"})["data"]["keys"]
    assert [(k["key"], k["read_by"]) for k in logging] == [
        ("ASPNETCORE_ENVIRONMENT", "the host (ASPNETCORE_* and DOTNET_* environment variables)"),
        ("Logging:LogLevel:Default", "the host's logging (WebApplication.CreateBuilder, Host.CreateDefaultBuilder)")]


def test_an_environment_variable_the_code_reads_is_the_key_compose_sets(flow: McpServerProcess) -> None:
    """BTCPay's tests read `Environment.GetEnvironmentVariable("TESTS_POSTGRES")`, which docker-compose sets for their
    service: 21 `TESTS_*` keys were defined_but_unused. A constant name is a read of the key the environment provider
    makes of it (`Tests__Timeout` is `Tests:Timeout`, the `(name, target)` overload too); `?? "60"` is a default, and a
    read tested `is null` is optional, as for IConfiguration's reads."""
    keys = flow.call("surfaces_list_config_keys", {"key_filter": "TESTS"})["data"]["keys"]
    main = "M:Program.<Main>$(System.String[])"
    read = {"pattern": "environment_variable", "symbol_id": main, "file": "src/Flow.Tool/Program.cs"}
    assert [(k["key"], k["status"], k.get("undefined_in"), k.get("defaulted"), k.get("optional"), k["usages"],
             k["defined_in"]) for k in keys] == [
        ("Tests:Timeout", "used", None, None, None, [{**read, "line": 13, "default": True}],
         [{"file": "docker-compose.yml", "line": 11, "source": "docker_compose", "service": "tool"}]),
        ("TESTS_BROWSER", "used_but_undefined", ["Flow.Tool"], None, True,
         [{**read, "line": 15, "optional": "TESTS_BROWSER"}], []),
        ("TESTS_POSTGRES", "used", None, None, None, [{**read, "line": 12}],
         [{"file": "docker-compose.yml", "line": 10, "source": "docker_compose", "service": "tool"}])]


def test_an_environment_variable_the_system_sets_is_not_undefined(flow: McpServerProcess) -> None:
    """Radarr and BTCPay read `PATH`, `HOME` and `CI` with Environment.GetEnvironmentVariable: each was
    used_but_undefined, which an agent would take for a setting the solution lacks. The operating system and the CI
    service set them: used, and `set_by` says who."""
    keys = flow.call("surfaces_list_config_keys", {"status": "used", "key_filter": "H"})["data"]["keys"]
    assert [(k["key"], k.get("set_by"), [u["line"] for u in k["usages"]], k["defined_in"])
            for k in keys if k.get("set_by")] == [
        ("GITHUB_ACTIONS", "the CI service (GITHUB_ACTIONS)", [17], []),
        ("HOME", "the operating system (HOME)", [17], [])]


def test_a_dockerfile_naming_its_project_relative_to_its_workdir_sets_that_projects_keys(
        flow: McpServerProcess) -> None:
    """modular-monolith's backend service builds src/ with src/Dockerfile, which copies the sources under /src and
    runs `dotnet publish "CompanyName.MyMeetings.API.csproj"` in WORKDIR /src/API/CompanyName.MyMeetings.API: the
    project was looked for beside the Dockerfile, so its environment was nobody's configuration. The worker service's
    Dockerfile publishes "Flow.Tool.csproj" in WORKDIR /src/Flow.Tool, which is src/Flow.Tool/Flow.Tool.csproj; its
    Tool_Tool__Batch is Tool:Batch, as Flow.Tool adds the environment with AddEnvironmentVariables("Tool_")."""
    keys = flow.call("surfaces_list_config_keys", {"key_filter": "Batch"})["data"]["keys"]
    assert [(k["key"], k["status"], k["projects"], k["defined_in"]) for k in keys] == [
        ("Tool:Batch", "used", ["Flow.Tool"], [{"file": "docker-compose.override.yml", "line": 15,
                                                "source": "docker_compose", "service": "worker", "prefix": "Tool_"}])]


def test_tables_of_one_name_in_several_schemas_and_an_entity_each_context_maps_its_own_way(
        flow: McpServerProcess) -> None:
    """modular-monolith: raw SQL's `[meetings].[InboxMessages]` and `[payments].[InboxMessages]` were one row of the
    first schema found (table_filter "meetings.InboxMessages" found none), and every module's DbSet of the shared
    InternalCommand was listed under the first module's schema. A DbSet's table is the one its own context's model
    maps: ToolDbContext applies ToolInternalCommandConfiguration (tool); FlowDbContext the configurations of its own
    assembly (orders); ArchiveContext, in Flow.Tool, those of Flow.Data's assembly (orders, not its project's tool)."""
    env = flow.call("surfaces_list_db_tables", {})
    assert [(t["table"], t["schema"], t["dbsets"], t["symbols"]) for t in env["data"]["tables"]] == [
        ("Catalog", None, ["CatalogItems"], ["P:Flow.Data.FlowDbContext.CatalogItems", ON_MODEL_CREATING]),
        ("Deliveries", "webhooks", ["Deliveries"], ["P:Flow.Tool.WebhooksContext.Deliveries"]),
        ("InboxMessages", "orders", [], ["M:Flow.Data.OrdersInbox.Clear"]),
        ("InboxMessages", "tool", [], ["M:Flow.Tool.ToolDbContext.ClearInbox"]),
        ("InternalCommands", "orders", ["InternalCommands", "ArchivedCommands"], [
            "P:Flow.Data.FlowDbContext.InternalCommands", f"M:Flow.Data.InternalCommandConfiguration.{CONFIGURE}",
            "P:Flow.Tool.ArchiveContext.ArchivedCommands"]),
        ("InternalCommands", "tool", ["InternalCommands"], [
            "P:Flow.Tool.ToolDbContext.InternalCommands", f"M:Flow.Tool.ToolInternalCommandConfiguration.{CONFIGURE}"]),
        ("Orders", None, ["Orders"], ["P:Flow.Data.FlowDbContext.Orders"]),
        # Flow.Tool/Billing.cs: the contexts' default schemas (test_a_context_default_schema_...).
        ("Subscriptions", "billing", ["Subscriptions"], ["P:Flow.Tool.BillingContext.Subscriptions", SUBSCRIPTIONS]),
        ("Subscriptions", "webhooks", ["Subscriptions"], ["P:Flow.Tool.WebhooksContext.Subscriptions", WEBHOOKS_MODEL])]
    inbox = flow.call("surfaces_list_db_tables", {"table_filter": "tool.InboxMessages"})["data"]["tables"]
    assert [(t["table"], t["schema"], t["sources"]) for t in inbox] == [
        ("InboxMessages", "tool", [{"source": "Sql", "file": "src/Flow.Tool/ToolData.cs", "line": 17}])]


ON_MODEL_CREATING = "M:Flow.Data.FlowDbContext.OnModelCreating(Microsoft.EntityFrameworkCore.ModelBuilder)"
CONFIGURE = ("Configure(Microsoft.EntityFrameworkCore.Metadata.Builders.EntityTypeBuilder"
             "{Flow.Core.InternalCommand})")
SUBSCRIPTIONS = ("M:Flow.Tool.SubscriptionConfiguration.Configure(Microsoft.EntityFrameworkCore.Metadata.Builders."
                 "EntityTypeBuilder{Flow.Tool.Subscription})")
WEBHOOKS_MODEL = "M:Flow.Tool.WebhooksContext.OnModelCreating(Microsoft.EntityFrameworkCore.ModelBuilder)"


def test_a_context_default_schema_is_the_schema_of_its_tables_mapped_without_one(flow: McpServerProcess) -> None:
    """fullstackhero's BillingDbContext sets `HasDefaultSchema(Schema)` ("billing") and its SubscriptionConfiguration
    maps `ToTable("Subscriptions")`: billing.Subscriptions was two rows, Subscriptions with no schema (its DbSet and
    ToTable) and billing.Subscriptions (its migrations only), beside webhooks.Subscriptions. Flow.Tool/Billing.cs:
    BillingContext applies the configuration by ApplyConfigurationsFromAssembly; WebhooksContext's Deliveries, a
    DbSet nothing maps, is in its context's default schema; the snapshot's own HasDefaultSchema is no fact."""
    tables = flow.call("surfaces_list_db_tables", {"table_filter": "Subscriptions"})["data"]
    assert [(t["table"], t["schema"], t["entities"], t["sources"], t["file"], t["line"], t.get("migrations"))
            for t in tables["tables"]] == [
        ("Subscriptions", "billing", ["T:Flow.Tool.Subscription"], [
            {"source": "DbSet", "file": "src/Flow.Tool/Billing.cs", "line": 27},
            {"source": "ToTable", "file": "src/Flow.Tool/Billing.cs", "line": 38}], "src/Flow.Tool/Billing.cs", 38, 1),
        ("Subscriptions", "webhooks", ["T:Flow.Tool.WebhookSubscription"], [
            {"source": "DbSet", "file": "src/Flow.Tool/Billing.cs", "line": 45},
            {"source": "ToTable", "file": "src/Flow.Tool/Billing.cs", "line": 51}], "src/Flow.Tool/Billing.cs", 51,
         None)]
    assert tables["migration_folders"] == [{"folder": "src/Flow.Tool/Migrations", "files": 1}]
    billing = flow.call("surfaces_list_db_tables", {"table_filter": "billing.Subscriptions"})["data"]["tables"]
    assert [(t["table"], t["schema"]) for t in billing] == [("Subscriptions", "billing")]
    deliveries = flow.call("surfaces_list_db_tables", {"table_filter": "Deliveries"})["data"]["tables"]
    assert [(t["table"], t["schema"], t["sources"]) for t in deliveries] == [
        ("Deliveries", "webhooks", [{"source": "DbSet", "file": "src/Flow.Tool/Billing.cs", "line": 46}])]
    card = flow.call("symbols_get_card", {"symbol_id": "T:Flow.Tool.BillingContext"})["data"]
    assert card["facts"] == [{"kind": "DbDefaultSchema", "key": "billing", "file": "src/Flow.Tool/Billing.cs",
                              "line": 31, "confidence": "high"}]
    snapshot = flow.call("symbols_get_card", {"symbol_id": "M:Flow.Tool.Migrations.BillingContextModelSnapshot."
                                              "BuildModel(Microsoft.EntityFrameworkCore.ModelBuilder)"})["data"]
    assert [(f["kind"], f["key"], f.get("schema")) for f in snapshot["facts"]] == [
        ("DbTable", "Subscriptions", "billing")]


def test_a_conventional_route_reaches_only_its_apps_controllers(flow: McpServerProcess) -> None:
    """Flow.Web's `{controller=Home}/{action=Index}` fills in its own controllers, not Flow.Other's
    StatusController (another app, which maps no route)."""
    env = flow.call("surfaces_list_endpoints", {"limit": 100})
    conventional = [(e["route"], e["handler"]) for e in env["data"]["endpoints"] if e["source"] == "conventional"]
    # RuleControllerBase (Controllers/Rules.cs) derives from Controller: a controller of its own too.
    assert [route for route, _ in conventional] == ["/Home/About", "/Home/Index", "/RuleControllerBase/EditCore"]
    assert not any("StatusController" in handler for _, handler in conventional)


def test_a_request_sent_as_its_interface_reaches_the_handler_of_the_command_made_on_the_way(
        flow: McpServerProcess) -> None:
    """CommandsExecutor.Execute<T>(ICommand<T> command) sends `command`: the trace from CancelAsync, which made a
    CancelOrderCommand, goes on into CancelOrderHandler, found through ICommandHandler : IRequestHandler."""
    env = flow.call("graph_trace_feature", {
        "entry_point": "M:Flow.Core.OrderCancellation.CancelAsync(Flow.Core.CommandsExecutor,System.Int32)",
        "depth": 3})
    got = [(n["depth"], n["symbol_id"], n["from"]["kind"], n["from"].get("via"), n["from"].get("inferred"))
           for n in env["data"]["nodes"]]
    assert got == [
        (1, "M:Flow.Core.CancelOrderCommand.#ctor(System.Int32)", "Instantiate", None, None),
        (1, "M:Flow.Core.CommandsExecutor.Execute``1(Flow.Core.ICommand{``0})", "Call", None, None),
        (2, "M:Flow.Core.IMediator.Send``1(Flow.Core.IRequest{``0},System.Threading.CancellationToken)", "Call", None,
         None),
        (2, "M:Flow.Core.ValidationBehavior`2.Handle(`0,Flow.Core.RequestHandlerDelegate{`1},"
            "System.Threading.CancellationToken)", "Behavior", "T:Flow.Core.CancelOrderCommand", None),
        (2, "M:Flow.Core.CancelOrderHandler.Handle(Flow.Core.CancelOrderCommand,System.Threading.CancellationToken)",
         "Mediator", "T:Flow.Core.CancelOrderCommand", "instantiated")]
    assert env["data"]["stops"]["by_reason"] == {"external": 1}  # no `no_handler`


def test_a_dynamic_controller_route_is_handled_by_its_transformer(flow: McpServerProcess) -> None:
    """`MapDynamicControllerRoute<SlugTransformer>("/{**slug}")`: the transformer picks the action at run time."""
    env = flow.call("surfaces_list_endpoints", {"path_filter": "slug"})
    assert [(e["method"], e["route"], e["handler"], e["source"]) for e in env["data"]["endpoints"]] == [
        ("ANY", "/{**slug}", "M:Flow.Web.SlugTransformer.TransformAsync(Microsoft.AspNetCore.Http.HttpContext,"
                             "Microsoft.AspNetCore.Routing.RouteValueDictionary)", "dynamic")]


def test_a_typed_http_client_is_registered_as_its_implementation(flow: McpServerProcess) -> None:
    """`AddHttpClient<IPricingClient, PricingClient>(...)`: DI makes PricingClient, so the trace dispatches there and
    not to FixedPricingClient (eShopOnContainers' WebMVC registers its services so)."""
    env = flow.call("surfaces_list", {"kind": "di", "filter": "Pricing"})
    assert [(r["service_id"], r["implementation_id"], r["lifetime"], r["via"], r["line"])
            for r in env["data"]["registrations"]] == [
        ("T:Flow.Web.IPricingClient", "T:Flow.Web.PricingClient", "Transient", "AddHttpClient", 8)]
    trace = flow.call("graph_trace_feature", {"entry_point": "GET /prices/{id:int}"})
    assert [(n["symbol_id"], n["from"]["kind"], n.get("di_registered")) for n in trace["data"]["nodes"]] == [
        ("M:Flow.Web.IPricingClient.QuoteAsync(System.Int32)", "Call", None),
        ("M:Flow.Web.PricingClient.QuoteAsync(System.Int32)", "Dispatch", True)]


def test_middleware_of_a_helper_runs_where_it_is_called_and_branches_say_their_condition(
        flow: McpServerProcess) -> None:
    """`Pipeline.ConfigureAuth(app)` between the exception handler and the static files (eShopOnContainers' Basket.API);
    `if (IsDevelopment) UseDeveloperExceptionPage else UseExceptionHandler` are alternatives, not two steps in a row."""
    env = flow.call("surfaces_list", {"kind": "middleware", "project": "Flow.Web"})
    assert [(m["order"], m["middleware"], m.get("condition"), m["configured_in"], m.get("called_from"), m["line"])
            for m in env["data"]["middleware"]] == [
        (1, "UseDeveloperExceptionPage", "app.Environment.IsDevelopment()", MAIN, None, 15),
        (2, "UseExceptionHandler", "!(app.Environment.IsDevelopment())", MAIN, None, 17),
        (3, "UseAuthentication", None, AUTH, MAIN, 9),
        (4, "UseAuthorization", None, AUTH, MAIN, 10),
        (5, "UseStaticFiles", None, MAIN, None, 19),
        (6, "UseCors", None, IDENTITY, MAIN, 11),
        (7, "UseRequestLocalization", None, IDENTITY, MAIN, 12)]


def test_middleware_of_a_referenced_projects_helper_is_spliced_into_the_apps_pipeline(flow: McpServerProcess) -> None:
    """modular-monolith's `app.AddIdentityService()` in the API's Startup.Configure, an extension its UserAccess module
    declares, was a pipeline of its own: Flow.Web's Program calls Flow.Core's IdentitySetup.AddIdentityService, whose
    steps run where it is called and belong to Flow.Web's pipeline (the file says where they are written)."""
    env = flow.call("surfaces_list", {"kind": "middleware"})
    assert env["answer"] == "7 middleware (7 Flow.Web)."
    assert [(m["order"], m["middleware"], m["project"], m["file"], m.get("called_from"))
            for m in env["data"]["middleware"]][4:] == [
        (5, "UseStaticFiles", "Flow.Web", "src/Flow.Web/Program.cs", None),
        (6, "UseCors", "Flow.Web", "src/Flow.Core/IdentitySetup.cs", MAIN),
        (7, "UseRequestLocalization", "Flow.Web", "src/Flow.Core/IdentitySetup.cs", MAIN)]


MAIN = "M:Program.<Main>$(System.String[])"
AUTH = "M:Flow.Web.Pipeline.ConfigureAuth(Microsoft.AspNetCore.Builder.IApplicationBuilder)"
IDENTITY = "M:Flow.Core.IdentitySetup.AddIdentityService(Microsoft.AspNetCore.Builder.IApplicationBuilder)"


def test_a_dispatch_reaches_the_implementation_instantiated_above_the_call(flow: McpServerProcess) -> None:
    """`Rules.Check(new EmailMustBeUniqueRule(email))` calls `rule.IsBroken()`: of the two rules, the one made on the
    way (`inferred: instantiated`); the other is counted, not listed."""
    env = flow.call("graph_trace_feature", {"entry_point": "M:Flow.Core.Customers.Register(System.String)"})
    got = [(n["depth"], n["symbol_id"], n["from"]["kind"], n["from"].get("inferred")) for n in env["data"]["nodes"]]
    assert got == [
        (1, "M:Flow.Core.Rules.Check(Flow.Core.IBusinessRule)", "Call", None),
        (1, "M:Flow.Core.EmailMustBeUniqueRule.#ctor(System.String)", "Instantiate", None),
        (2, "M:Flow.Core.IBusinessRule.IsBroken", "Call", None),
        (2, "M:Flow.Core.EmailMustBeUniqueRule.IsBroken", "Dispatch", "instantiated")]
    assert env["data"]["stops"]["implementations_not_instantiated"] == 1


def test_an_event_published_on_an_event_bus_reaches_its_handler(flow: McpServerProcess) -> None:
    """`eventBus.Publish(new OrderShippedIntegrationEvent(id))` on the solution's IEventBus goes on into the
    IIntegrationEventHandler of that event (eShopOnContainers' integration events), as a mediator notification does
    (no pipeline behavior: they wrap a Send)."""
    env = flow.call("graph_trace_feature", {"entry_point": "M:Flow.Core.ShippingService.Ship(System.Int32)"})
    assert [(n["symbol_id"], n["from"]["kind"], n["from"].get("via")) for n in env["data"]["nodes"]] == [
        ("M:Flow.Core.OrderShippedIntegrationEvent.#ctor(System.Int32)", "Instantiate", None),
        ("M:Flow.Core.IEventBus.Publish(Flow.Core.IntegrationEvent)", "Call", None),
        ("M:Flow.Core.OrderShippedIntegrationEventHandler.Handle(Flow.Core.OrderShippedIntegrationEvent)", "Mediator",
         "T:Flow.Core.OrderShippedIntegrationEvent")]
    assert env["data"]["stops"]["by_reason"] == {"external": 1}  # Task.CompletedTask; no `no_implementation`


def test_an_event_another_service_handles_by_its_own_class_is_matched_by_name(flow: McpServerProcess) -> None:
    """`eventBus.Publish(taken)`, typed IntegrationEvent: the concrete event made above is Flow.Core's
    PaymentTakenIntegrationEvent, which no Flow.Core handler takes; Flow.Other handles its own class of that name
    (`inferred: by_name`). A handler whose body merely names IntegrationEvent is not taken for its handler."""
    env = flow.call("graph_trace_feature", {"entry_point": "M:Flow.Core.ShippingService.Charge(System.Int32)"})
    assert [(n["symbol_id"], n["from"]["kind"], n["from"].get("via"), n["from"].get("inferred"))
            for n in env["data"]["nodes"]] == [
        ("M:Flow.Core.PaymentTakenIntegrationEvent.#ctor(System.Int32)", "Instantiate", None, None),
        ("M:Flow.Core.IEventBus.Publish(Flow.Core.IntegrationEvent)", "Call", None, None),
        ("M:Flow.Other.PaymentTakenIntegrationEventHandler.Handle(Flow.Other.PaymentTakenIntegrationEvent)", "Mediator",
         "T:Flow.Core.PaymentTakenIntegrationEvent", "by_name")]


def test_impact_and_tests_walk_a_mediator_request_back_to_its_senders(flow: McpServerProcess) -> None:
    """eShop's CreateOrderDraftCommandHandler.Handle: "0 endpoints reach it" while OrdersApi sends its command.
    A handler is reached from the members that send its request (the trace's Mediator edge, walked back)."""
    env = flow.call("impact_analyze", {"symbol_id": HANDLE})
    callers = [(c["symbol_id"], c["depth"], c.get("through")) for c in env["data"]["callers"]]
    assert callers == [(CREATE, 1, "mediator"),
                       ("M:Flow.Web.Pages.Orders.CreateModel.OnPostAsync", 1, "mediator")]
    assert [e["endpoint"] for e in env["data"]["endpoints"]] == ["POST /orders", "POST /Orders/Create"]


def test_a_member_named_only_in_razor_markup_is_not_unused_and_refs_say_where(flow: McpServerProcess) -> None:
    """eShopOnWeb's BasketViewModel.Total, called from Pages/Basket/Index.cshtml only: symbols_unused said unused
    and refs_find a bare 0 (the Razor generator's code is not indexed). Razor page handlers are entry points."""
    unused = flow.call("symbols_unused", {"project": "Flow.Web"})
    # no actions: no routes; Throttle (Throttle.cs) is made by nothing: it only stands for a caller of ISettingsReader
    assert [u["symbol_id"] for u in unused["data"]["unused"]] == [*RULES_NON_ACTIONS, "T:Flow.Web.Throttle"]
    assert {k: v["count"] for k, v in unused["data"]["excluded"].items()} == {
        # Controllers/Resources.cs: CommandsController's and InvoicesController's constructors, two GetById
        # overrides, four controllers and three actions; Controllers/AuditController.cs: its constructor.
        # TableSettings.cs: TableSettingsSource.Build and TableSettingsProvider.Load (the configuration calls them).
        "constructed": 8, "dispatch": 9,
        # and Rules.cs, Stores.cs, Stores.Rates.cs and Manage.cs: four controllers (RuleControllerBase is a base in
        # use) and ten actions; AuditController and its action.
        "framework_entry": 41,
        # PriceLabel, bound in Catalog.cshtml's generated code, and the page models CatalogModel, Customers' IndexModel
        # and Orders' CreateModel, which their pages' generated classes name (`@model`).
        "generated_code": 4,
        # MarkupHelpers.Money and its class (below): `@Html.Money(3m)` binds to nothing in the generated code (no
        # `@using Flow.Web.Pages`), so only the name says it.
        "markup": 2,
        "entry_point": 1}  # its own Program.<Main>$ (every top-level project declares that id)
    refs = flow.call("refs_find", {"symbol_id": "CatalogModel.PriceLabel"})
    assert refs["data"]["references"] == []
    # The page's generated code binds it (generated_uses): the name-matched line is said as such.
    assert ("Razor markup names 'PriceLabel' on 1 line (src/Flow.Web/Pages/Catalog.cshtml:8), matched by name: the "
            "Razor generator's code using this symbol is listed in generated_uses; the other lines may name another "
            "member of that name, or use this one where the generator's code did not bind.") in refs["warnings"]


SHIP_HANDLE = "M:Flow.Core.ShipOrderHandler.Handle(Flow.Core.ShipOrderCommand,System.Threading.CancellationToken)"
SHIP_ASYNC = "M:Flow.Core.Shipping.ShipAsync(Flow.Core.IMediator,System.Int32)"


def test_a_generic_handler_sending_its_type_parameter_goes_on_to_the_wrapped_commands_handler(
        flow: McpServerProcess) -> None:
    """eShop's `PUT /api/orders/ship` stopped in IdentifiedCommandHandler<T, R>.Handle, which sends `command` typed
    `T`: T is ShipOrderCommand in the IdentifiedCommand<ShipOrderCommand, bool> that reached it."""
    env = flow.call("graph_trace_feature", {"entry_point": SHIP_ASYNC, "depth": 3})
    assert env["ok"], env
    mediator = [(n["depth"], n["symbol_id"], n["from"]["from"], n["from"]["via"], n["from"].get("inferred"))
                for n in env["data"]["nodes"] if n["from"]["kind"] == "Mediator"]
    generic = "M:Flow.Core.IdentifiedCommandHandler`2.Handle(Flow.Core.IdentifiedCommand{`0,`1}," \
              "System.Threading.CancellationToken)"
    assert mediator == [
        (1, generic, SHIP_ASYNC, "T:Flow.Core.IdentifiedCommand`2", None),
        (2, SHIP_HANDLE, generic, "T:Flow.Core.ShipOrderCommand", "type_argument")]
    # Walked back, the wrapped command's sender is the member that wrapped it (not every sender of the generic one).
    impact = flow.call("impact_analyze", {"symbol_id": SHIP_HANDLE})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in impact["data"]["callers"]] == [
        (SHIP_ASYNC, 1, "mediator")]


def test_a_request_handed_to_a_forwarder_is_sent_by_the_member_that_made_it(flow: McpServerProcess) -> None:
    """Contoso's and realworld's tests call a fixture's `SendAsync<T>(IRequest<T> r) => mediator.Send(r)` with
    `new Create.Command(...)`: tests_find said the handlers were untested. Walked back, the handler's sender is the
    member that makes the command and hands it to the forwarder (here CommandsExecutor.Execute)."""
    handle = "M:Flow.Core.CancelOrderHandler.Handle(Flow.Core.CancelOrderCommand,System.Threading.CancellationToken)"
    impact = flow.call("impact_analyze", {"symbol_id": handle})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in impact["data"]["callers"]] == [
        ("M:Flow.Core.OrderCancellation.CancelAsync(Flow.Core.CommandsExecutor,System.Int32)", 1, "mediator")]


def test_an_event_published_with_publish_async_reaches_its_handler(flow: McpServerProcess) -> None:
    """eShop's `eventBus.PublishAsync(new GracePeriodConfirmedIntegrationEvent(...))` stopped at the bus: only
    Send/Publish/CreateStream were read as sends."""
    env = flow.call("graph_trace_feature", {"entry_point": "M:Flow.Core.ShippingService.ShipLaterAsync(System.Int32)"})
    assert [(n["symbol_id"], n["from"]["kind"]) for n in env["data"]["nodes"]] == [
        ("M:Flow.Core.OrderShippedIntegrationEvent.#ctor(System.Int32)", "Instantiate"),
        ("M:Flow.Core.IEventBus.PublishAsync(Flow.Core.IntegrationEvent)", "Call"),
        ("M:Flow.Core.OrderShippedIntegrationEventHandler.Handle(Flow.Core.OrderShippedIntegrationEvent)", "Mediator")]


def test_a_nodes_type_arguments_are_those_of_the_caller_it_shows(flow: McpServerProcess) -> None:
    """IRepository<T>.ListAsync is called with Order by CountAsync (the node's `from`) and with CatalogItem by
    CatalogReader.ReadAsync (declared first in the file): the node said `from CountAsync` with CatalogItem."""
    env = flow.call("graph_trace_feature", {"entry_point": "M:Flow.Core.Dashboard.CountAsync(Flow.Core.IRepository"
                                            "{Flow.Core.Order},Flow.Core.CatalogReader,System.Threading.CancellationToken)",
                                            "depth": 2})
    assert [(n["symbol_id"], n.get("type_arguments")) for n in env["data"]["nodes"]] == [
        ("M:Flow.Core.CatalogReader.ReadAsync(System.Threading.CancellationToken)", None),
        (LIST, ["T:Flow.Core.Order"]),
        ("M:Flow.Data.EfRepository`1.ListAsync(System.Threading.CancellationToken)", ["T:Flow.Core.Order"])]
    # The tables read take every caller's type arguments: Catalog through ReadAsync, Orders through CountAsync.
    assert [(t["table"], t["entity"]) for t in env["data"]["tables"]] == [
        ("Catalog", "T:Flow.Core.CatalogItem"), ("Orders", "T:Flow.Core.Order")]


def test_graph_callers_of_a_handler_says_who_sends_its_request(flow: McpServerProcess) -> None:
    """realworld's and Contoso's handlers: graph_callers said "0 callers" and nothing more."""
    env = flow.call("graph_callers", {"symbol_id": SHIP_HANDLE})
    assert env["data"]["nodes"] == []
    assert env["warnings"] == [
        f"Its request is sent through a mediator or a message bus by 1 member ({SHIP_ASYNC}): not call edges; "
        "impact_analyze and tests_find walk them (`through: mediator`)."]
    # A card with its callers says the same (Contoso: "0 callers" and nothing more).
    card = flow.call("symbols_get_card", {"symbol_id": SHIP_HANDLE, "include": ["callers"]})
    assert (card["data"]["callers"], card["warnings"]) == ([], env["warnings"])


def test_a_command_handed_through_a_module_facade_is_sent_by_the_member_that_made_it(flow: McpServerProcess) -> None:
    """modular-monolith-with-ddd: the controller calls `IMeetingsModule.ExecuteCommandAsync(new X())`, whose
    implementation hands the command to `CommandsExecutor.Execute`, which sends it: impact_analyze and tests_find of
    every command handler said 0 endpoints and 0 tests. Commands.cs: IOrdersModule -> OrdersModule -> executor."""
    handle = ("M:Flow.Core.ArchiveOrderHandler.Handle(Flow.Core.ArchiveOrderCommand,"
              "System.Threading.CancellationToken)")
    impact = flow.call("impact_analyze", {"symbol_id": handle})
    # ArchiveBoundAsync is handed the command and hands it on: a sender too (a page's model-bound command).
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in impact["data"]["callers"]] == [
        ("M:Flow.Core.OrderArchiving.ArchiveAsync(Flow.Core.IOrdersModule,System.Int32)", 1, "mediator"),
        ("M:Flow.Core.OrderArchiving.ArchiveBoundAsync(Flow.Core.IOrdersModule,Flow.Core.ArchiveOrderCommand)", 1,
         "mediator")]


def test_a_domain_event_published_as_its_interface_is_raised_by_the_member_that_makes_it(
        flow: McpServerProcess) -> None:
    """modular-monolith-with-ddd's aggregates record domain events, which a dispatcher publishes later typed as
    IDomainEvent: the trace said `no_handler` at the dispatcher, and the handler had no caller. Walked back, the
    handler's sender is the constructor that raises the event (then whoever makes the aggregate); the dispatcher's
    trace says the run-time type decides, with how many handlers could run."""
    handle = ("M:Flow.Core.OrderArchivedHandler.Handle(Flow.Core.OrderArchivedDomainEvent,"
              "System.Threading.CancellationToken)")
    impact = flow.call("impact_analyze", {"symbol_id": handle})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in impact["data"]["callers"]] == [
        ("M:Flow.Core.ArchivedOrder.#ctor(System.Int32)", 1, "mediator"),
        ("M:Flow.Core.ArchiveOrderHandler.Handle(Flow.Core.ArchiveOrderCommand,System.Threading.CancellationToken)",
         2, None),
        ("M:Flow.Core.OrderArchiving.ArchiveAsync(Flow.Core.IOrdersModule,System.Int32)", 3, "mediator"),
        ("M:Flow.Core.OrderArchiving.ArchiveBoundAsync(Flow.Core.IOrdersModule,Flow.Core.ArchiveOrderCommand)", 3,
         "mediator")]
    env = flow.call("graph_trace_feature", {"entry_point": "M:Flow.Core.DomainEventsDispatcher.DispatchAsync("
                                            "System.Collections.Generic.IEnumerable{Flow.Core.IDomainEvent})"})
    assert env["data"]["stops"]["by_reason"] == {"sent_as_base": 1}
    assert env["data"]["stops"]["places"] == [
        {"reason": "sent_as_base", "at": "M:Flow.Core.DomainEventsDispatcher.DispatchAsync("
         "System.Collections.Generic.IEnumerable{Flow.Core.IDomainEvent})", "request": "T:Flow.Core.IDomainEvent",
         "file": "src/Flow.Core/Commands.cs", "line": 87, "handlers": 1}]


def test_a_table_read_by_a_handler_lists_the_endpoint_sending_its_request(flow: McpServerProcess) -> None:
    """Contoso's pages send each query to a handler reading the table: `with_endpoints` listed no endpoint for any
    table (it walked plain callers, not impact_analyze's mediator sends). Pages/Orders/Count.cshtml.cs.
    SimplCommerce registers its entities by reflection and reads them through `IRepository<Review>.Query()`: 80 of its
    85 tables had no mapping symbol to walk from, and listed no endpoint. A member calling a generic type's member
    with the entity as a type argument reaches the table too (`inferred: type_argument`, as graph_trace_feature's
    tables): CatalogService's `IRepository<CatalogItem>.ListAsync` for GET /catalog, CreateOrderHandler's
    `IRepository<Order>.AddAsync` for the two routes sending CreateOrderCommand."""
    env = flow.call("surfaces_list_db_tables", {"with_endpoints": True})
    assert [(t["table"], t["endpoints"]) for t in env["data"]["tables"] if t["table"] in ("Catalog", "Orders")] == [
        ("Catalog", [{"endpoint": "GET /catalog", "inferred": "type_argument", "handler":
                      "M:Flow.Web.CatalogEndpoints.List(Flow.Core.ICatalogService,System.Threading.CancellationToken)"}]),
        ("Orders", [{"endpoint": "POST /orders", "handler": "M:Flow.Web.OrderEndpoints.Create(Flow.Core.IMediator,"
                     "Flow.Web.CreateOrderRequest,System.Threading.CancellationToken)", "inferred": "type_argument"},
                    {"endpoint": "GET /Orders/Count", "handler": "M:Flow.Web.Pages.Orders.CountModel.OnGetAsync"},
                    {"endpoint": "POST /Orders/Create", "handler": "M:Flow.Web.Pages.Orders.CreateModel.OnPostAsync",
                     "inferred": "type_argument"}])]


CUSTOMERS = "Flow.Web.Pages.Customers."


def test_tag_helper_links_name_the_page_file_not_its_route(flow: McpServerProcess) -> None:
    """Contoso's _Layout links `asp-page="/Students/Index"`: refs_find on the Index page's model listed no link (the
    link was compared with the route, `/Students`, which drops Index), nor one to `/Courses/Edit`, whose route has
    a template, nor relative ones (`Edit`, `./Details`, `../Index`). asp-page names the page file."""
    def links(model: str) -> list[tuple[str, int, str]]:
        env = flow.call("refs_find", {"symbol_id": f"T:{model}"})
        return [(r["file"], r["line"], r["link"]) for r in env["data"]["references"]]

    assert links(CUSTOMERS + "IndexModel") == [
        ("src/Flow.Web/Pages/Customers/CreateEdit.cshtml", 5, "Index"),
        ("src/Flow.Web/Pages/Customers/Edit.cshtml", 7, "Index"),
        ("src/Flow.Web/Pages/Shared/_Layout.cshtml", 6, "/Customers/Index")]
    assert links(CUSTOMERS + "EditModel") == [  # served at /Customers/Edit/{id:int}
        ("src/Flow.Web/Pages/Customers/Details.cshtml", 6, "/Customers/Edit"),
        ("src/Flow.Web/Pages/Customers/Index.cshtml", 5, "Edit")]
    assert links(CUSTOMERS + "DetailsModel") == [("src/Flow.Web/Pages/Customers/Index.cshtml", 6, "./Details")]
    assert links("Flow.Web.Pages.CatalogModel") == [
        ("src/Flow.Web/Pages/Customers/Edit.cshtml", 8, "../Catalog"),
        ("src/Flow.Web/Pages/Orders/Create.cshtml", 5, "/Catalog"),
        ("src/Flow.Web/Pages/Shared/_Layout.cshtml", 5, "/Catalog")]


def test_a_razor_page_route_runs_the_handler_its_path_or_query_string_names(flow: McpServerProcess) -> None:
    """Contoso's `GET /Instructors/CreateEdit?handler=Edit&id=3` traced "0 nodes" from the page model: ASP.NET reads
    the handler from the query string when the route gives none. `GET /Courses/Index` was NOT_FOUND: an Index page
    is served at `/Courses` and `/Courses/Index`. `GET /Students/Edit/abc` matched `{id:int}`."""
    def root(entry: str) -> tuple[str, str]:
        env = flow.call("graph_trace_feature", {"entry_point": entry, "depth": 1})
        return env["data"]["root"]["symbol_id"], env["data"]["route"]["route"]

    create_edit = "M:" + CUSTOMERS + "CreateEditModel."
    assert root("GET /Customers/CreateEdit?handler=Edit&id=3") == (
        create_edit + "OnGetEditAsync(System.Int32)", "/Customers/CreateEdit/Edit")
    assert root("GET /Customers/CreateEdit/Edit?id=3") == (
        create_edit + "OnGetEditAsync(System.Int32)", "/Customers/CreateEdit/Edit")
    # The route's {handler} value wins over the query string's; no handler of that name: the page renders.
    assert root("GET /Customers/CreateEdit/Other?handler=Edit") == (
        "T:" + CUSTOMERS + "CreateEditModel", "/Customers/CreateEdit/{handler?}")
    assert root("POST /Customers/CreateEdit?handler=edit") == (  # names compare case-insensitively
        create_edit + "OnPostEdit(System.Int32)", "/Customers/CreateEdit/Edit")
    details = "M:" + CUSTOMERS + "DetailsModel."
    assert root("GET /Customers/Details?handler=History") == (
        details + "OnGetHistory", "/Customers/Details?handler=History")
    assert root("GET /Customers/Details") == (details + "OnGet", "/Customers/Details")
    assert root("GET /Customers/Details?handler=Missing") == (details + "OnGet", "/Customers/Details")
    index = ("M:" + CUSTOMERS + "IndexModel.OnGet", "/Customers")
    assert root("GET /Customers/Index") == index
    assert root("GET /Customers") == index
    assert root("GET /Customers/Edit/5") == ("M:" + CUSTOMERS + "EditModel.OnGet(System.Int32)",
                                             "/Customers/Edit/{id:int}")
    # `abc` is no int: the catch-all dynamic route takes the path, as it would in ASP.NET.
    assert root("GET /Customers/Edit/abc") == (
        "M:Flow.Web.SlugTransformer.TransformAsync(Microsoft.AspNetCore.Http.HttpContext,"
        "Microsoft.AspNetCore.Routing.RouteValueDictionary)", "/{**slug}")


def test_a_static_class_whose_extension_methods_markup_calls_is_not_unused(flow: McpServerProcess) -> None:
    """Contoso's HtmlHelperExtensions: each method is called only as `@Html.FormBlock(...)` in .cshtml, so each was
    left out as `markup`, but the class itself was listed unused, standing for those members."""
    unused = flow.call("symbols_unused", {"project": "Flow.Web", "kinds": ["Class"]})
    assert [u["symbol_id"] for u in unused["data"]["unused"]] == ["T:Flow.Web.Throttle"]  # made by nothing, truly
    assert {k: v["count"] for k, v in unused["data"]["excluded"].items()} == {
        # dispatch: CountOrdersHandler (Count.cshtml.cs) too; framework_entry: four controllers of Resources.cs,
        # the four of Rules.cs, Stores.cs and Manage.cs, and AuditController; generated_code: three page models
        # their pages' generated classes name (above)
        "dispatch": 2, "framework_entry": 10, "generated_code": 3, "markup": 1}


def test_a_source_generated_mediators_handlers_are_handlers(flow: McpServerProcess) -> None:
    """fullstackhero's martinothamar/Mediator: ICommandHandler/IQueryHandler are the mediator's own handler
    interfaces (not MediatR's IRequestHandler): 174 of 185 endpoint traces stopped at `no_handler`, and every
    handler had 0 endpoints and 0 tests. Flow.Core/SourceGenerated.cs."""
    p, token = "M:Flow.Core.SourceGenerated.", "System.Threading.CancellationToken"
    env = flow.call("graph_trace_feature", {"entry_point": f"{p}BrandEndpoints.CreateAsync({p[2:]}IMediator,"
                                            "System.String)"})
    assert [(n["from"]["kind"], n["symbol_id"]) for n in env["data"]["nodes"] if n["from"]["kind"] == "Mediator"] == [
        ("Mediator", f"{p}CreateBrandCommandHandler.Handle({p[2:]}CreateBrandCommand,{token})")]
    assert env["data"]["stops"]["by_reason"] == {"external": 1}  # ValueTask.FromResult; no `no_handler`
    impact = flow.call("impact_analyze", {
        "symbol_id": f"{p}GetBrandQueryHandler.Handle({p[2:]}GetBrandQuery,System.Threading.CancellationToken)"})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in impact["data"]["callers"]] == [
        (f"{p}BrandEndpoints.GetAsync({p[2:]}IMediator,System.Guid)", 1, "mediator")]


def test_an_inherited_action_runs_the_overrides_its_controller_sees(flow: McpServerProcess) -> None:
    """Radarr's RestController<TResource>: `GET /api/v3/Movie/{id:int}` is the base's action, calling the abstract
    GetResourceById on this through a helper; its trace listed all 33 controllers' overrides. The route's controller
    is the object: AuthorController's override only; ArchivedAuthorController, which overrides nothing, runs
    AuthorController's. Flow.Web/Controllers/Resources.cs."""
    c = "M:Flow.Web.Controllers."
    get_by_id = f"{c}ResourceController`1.GetById(System.Int32)"

    def traced(route: str) -> list[tuple[int, str, str | None, str | None]]:
        env = flow.call("graph_trace_feature", {"entry_point": route, "depth": 3})
        assert env["data"]["root"]["symbol_id"] == f"{c}ResourceController`1.GetByIdWithErrorHandler(System.Int32)"
        return _nodes(env)

    fetch = (1, f"{c}ResourceController`1.Fetch(System.Int32)", "Call", None)
    assert traced("GET /api/authors/{id:int}") == [
        fetch, (2, get_by_id, "Call", None), (2, f"{c}AuthorController.GetById(System.Int32)", "Dispatch", get_by_id)]
    assert traced("GET /api/archived-authors/{id:int}") == [
        fetch, (2, get_by_id, "Call", None), (2, f"{c}AuthorController.GetById(System.Int32)", "Dispatch", get_by_id)]
    assert traced("GET /api/labels/{id:int}") == [
        fetch, (2, get_by_id, "Call", None), (2, f"{c}LabelController.GetById(System.Int32)", "Dispatch", get_by_id)]
    # The base's action itself (no controller known): every override.
    env = flow.call("graph_trace_feature", {"entry_point": f"{c}ResourceController`1.GetByIdWithErrorHandler("
                                            "System.Int32)", "depth": 3})
    assert _nodes(env) == [
        fetch, (2, get_by_id, "Call", None), (2, f"{c}AuthorController.GetById(System.Int32)", "Dispatch", get_by_id),
        (2, f"{c}LabelController.GetById(System.Int32)", "Dispatch", get_by_id)]


QUEUED = "M:Flow.Core.Queueing."
REFRESH_EXECUTE = f"{QUEUED}RefreshCatalogService.Execute(Flow.Core.Queueing.RefreshCatalogCommand)"
REINDEX_EXECUTE = f"{QUEUED}ReindexService.Execute(Flow.Core.Queueing.ReindexCommand)"


def test_a_command_pushed_on_a_queue_reaches_the_handler_of_its_type(flow: McpServerProcess) -> None:
    """Radarr's `IManageCommandQueue.Push(new RefreshMovieCommand(...))`: the command is stored and a worker later
    runs `IExecute<RefreshMovieCommand>.Execute`; impact_analyze of RefreshMovieService.Execute said 0 endpoints and
    the trace stopped in Push without a reason. Flow.Core/CommandQueue.cs: Push<TCommand> and IExecute<TCommand> take
    the same constrained TCommand, so the push links to the handler of its type, and only that one."""
    env = flow.call("graph_trace_feature", {"entry_point": "POST /api/commands/refresh", "depth": 2})
    assert _nodes(env) == [(1, f"{QUEUED}CommandQueue.Push``1(``0)", "Call", None),
                           (1, REFRESH_EXECUTE, "Queue", "T:Flow.Core.Queueing.RefreshCatalogCommand")]
    assert env["data"]["stops"]["by_reason"] == {"external": 1}  # Queue<T>.Enqueue
    callers = flow.call("graph_callers", {"symbol_id": REFRESH_EXECUTE})
    assert [n["symbol_id"] for n in callers["data"]["nodes"]] == [f"{QUEUED}CommandQueue.Run``1(``0)"]
    assert callers["warnings"] == [
        "Its command is pushed on a queue by 1 member (M:Flow.Web.Controllers.CommandsController.Refresh), and run "
        "later by the handler built for its type: not call edges; impact_analyze and tests_find walk them "
        "(`through: queue`)."]
    impact = flow.call("impact_analyze", {"symbol_id": REFRESH_EXECUTE})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in impact["data"]["callers"]] == [
        (f"{QUEUED}CommandQueue.Run``1(``0)", 1, None),
        ("M:Flow.Web.Controllers.CommandsController.Refresh", 1, "queue"),
        (f"{QUEUED}CommandQueue.Drain", 2, None)]
    assert impact["data"]["endpoints"] == [
        {"endpoint": "POST /api/commands/refresh", "handler": "M:Flow.Web.Controllers.CommandsController.Refresh"}]
    # The other command's handler: queued by Nightly through the solution's own generic helper, not by the endpoint.
    other = flow.call("impact_analyze", {"symbol_id": REINDEX_EXECUTE})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in other["data"]["callers"]] == [
        (f"{QUEUED}CommandQueue.Run``1(``0)", 1, None), (f"{QUEUED}Scheduler.Nightly", 1, "queue"),
        (f"{QUEUED}CommandQueue.Drain", 2, None)]
    assert other["data"]["endpoints"] == []
    nightly = flow.call("graph_trace_feature", {"entry_point": f"{QUEUED}Scheduler.Nightly", "depth": 2})
    assert _nodes(nightly) == [(1, f"{QUEUED}Scheduler.Schedule``1(``0)", "Call", None),
                               (1, REINDEX_EXECUTE, "Queue", "T:Flow.Core.Queueing.ReindexCommand"),
                               (2, f"{QUEUED}CommandQueue.Push``1(``0)", "Call", None)]
    # Entered at the helper, the command's type is not known: the trace says it stops at a queue, and which.
    helper = flow.call("graph_trace_feature", {"entry_point": f"{QUEUED}Scheduler.Schedule``1(``0)", "depth": 2})
    assert helper["data"]["stops"]["places"] == [
        {"reason": "queued", "at": f"{QUEUED}Scheduler.Schedule``1(``0)", "queue": f"{QUEUED}CommandQueue.Push``1(``0)",
         "handler_interface": "T:Flow.Core.Queueing.IExecute`1", "file": "src/Flow.Core/CommandQueue.cs", "line": 61,
         "request": "``0"}]


SUBS = "M:Flow.Core.Subscriptions."
ON_PAID = f"{SUBS}Mailer.OnInvoicePaid(Flow.Core.Subscriptions.InvoicePaid)"
ON_VOIDED = f"{SUBS}Mailer.OnInvoiceVoided(Flow.Core.Subscriptions.InvoiceVoided)"
RECORD = f"{SUBS}Ledger.Record(System.String)"
PAY = "M:Flow.Web.Controllers.InvoicesController.Pay(System.String)"


def test_a_handler_subscribed_as_a_delegate_is_run_by_the_publishers_of_its_event(flow: McpServerProcess) -> None:
    """BTCPay Server's `_eventAggregator.Subscribe<InvoiceEvent>(TopUpInvoiceCore)`: Publish<T> later invokes the
    stored delegates, so graph_callers said 0 callers, impact_analyze 0 endpoints, and the trace of an endpoint
    publishing the event stopped in Publish without a reason. Flow.Core/EventBus.cs: a method group and a one-line
    lambda subscribed to InvoicePaid are run by its publish; a lambda over several lines is named in a stop."""
    env = flow.call("graph_trace_feature", {"entry_point": "POST /api/invoices/{id}/pay", "depth": 1})
    publish = f"{SUBS}IBus.Publish``1(``0)"
    assert _nodes(env) == [
        (1, f"{SUBS}InvoicePaid.#ctor(System.String)", "Instantiate", None),
        (1, publish, "Call", None),
        (1, f"{SUBS}Bus.Publish``1(``0)", "Dispatch", publish),
        (1, f"{SUBS}StockCounted.#ctor(System.Int32)", "Instantiate", None),
        (1, RECORD, "Subscription", "T:Flow.Core.Subscriptions.InvoicePaid"),
        (1, ON_PAID, "Subscription", "T:Flow.Core.Subscriptions.InvoicePaid")]
    assert ON_VOIDED not in {n["symbol_id"] for n in env["data"]["nodes"]}  # another event's subscriber
    site = {"at": PAY, "publish": publish, "file": "src/Flow.Web/Controllers/Resources.cs"}
    # No `no_handler` for the same sites (their MediatorRequest facts with `bus`): said once, here.
    assert env["data"]["stops"]["by_reason"] == {"subscribed": 1, "no_subscriber": 1}
    assert env["data"]["stops"]["places"] == [
        {"reason": "subscribed", **site, "line": 57, "event": "T:Flow.Core.Subscriptions.InvoicePaid",
         "subscriber": f"{SUBS}Ledger.Start", "subscribed_at": "src/Flow.Core/EventBus.cs:83"},
        {"reason": "no_subscriber", **site, "line": 58, "event": "T:Flow.Core.Subscriptions.StockCounted"}]
    callers = flow.call("graph_callers", {"symbol_id": ON_PAID})
    assert callers["answer"] == "0 bound callers of Flow.Core.Subscriptions.Mailer.OnInvoicePaid within depth 1."
    assert callers["warnings"] == [
        f"It is subscribed to an event bus as a delegate and runs when its event is published, by 1 member ({PAY}):"
        " not call edges; impact_analyze and tests_find walk them (`through: subscription`)."]
    assert "hint" not in callers  # not an entry point
    impact = flow.call("impact_analyze", {"symbol_id": ON_PAID})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in impact["data"]["callers"]] == [
        (PAY, 1, "subscription")]
    assert impact["data"]["endpoints"] == [{"endpoint": "POST /api/invoices/{id}/pay", "handler": PAY}]
    # The lambda's callee: its subscriber calls it (a bound call), and the publisher runs it.
    record = flow.call("impact_analyze", {"symbol_id": RECORD})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in record["data"]["callers"]] == [
        (f"{SUBS}Ledger.Start", 1, None), (PAY, 1, "subscription")]
    # InvoiceVoided is subscribed to and never published: nothing reaches its handler.
    other = flow.call("impact_analyze", {"symbol_id": ON_VOIDED})
    assert (other["data"]["callers"], other["data"]["endpoints"]) == ([], [])
    assert flow.call("graph_callers", {"symbol_id": ON_VOIDED}).get("warnings") is None

def _endpoints(flow: McpServerProcess, path_filter: str) -> list[tuple[str, str, str, str, str]]:
    env = flow.call("surfaces_list_endpoints", {"path_filter": path_filter})
    assert env["ok"], env
    return [(e["method"], e["route"], e["handler"], e["source"], f"{e['file']}:{e['line']}")
            for e in env["data"].get("endpoints", [])]


def test_a_partial_controllers_route_holds_for_the_actions_of_its_other_parts(flow: McpServerProcess) -> None:
    """BTCPay's UIStoresController: `[Route("stores")]` on UIStoresController.cs only; 32 actions of
    UIStoresController.*.cs were listed without it (`/{storeId}/rates`). Controllers/Stores.cs, Stores.Rates.cs."""
    assert _endpoints(flow, "/stores") == [
        # Export has no verb attribute: the controller's route, any method (it was a conventional /Stores/Export).
        ("ANY", "/stores", f"{CONTROLLERS}StoresController.Export(System.String)", "attribute",
         "src/Flow.Web/Controllers/Stores.Rates.cs:12"),
        ("GET", "/stores/{storeId}/index", f"{CONTROLLERS}StoresController.Index(System.String)", "attribute",
         "src/Flow.Web/Controllers/Stores.cs:10"),
        ("GET", "/stores/{storeId}/rates", f"{CONTROLLERS}StoresController.Rates(System.String)", "attribute",
         "src/Flow.Web/Controllers/Stores.Rates.cs:8")]
    env = flow.call("graph_trace_feature", {"entry_point": "GET /stores/abc/rates", "depth": 1})
    assert env["ok"] and env["data"]["root"]["symbol_id"] == f"{CONTROLLERS}StoresController.Rates(System.String)"


def test_an_action_without_a_verb_is_served_at_its_controllers_route_for_any_method(flow: McpServerProcess) -> None:
    """BTCPay's NFCController.SubmitLNURLWithdrawForInvoice (no [HttpX] under `[Route("plugins/NFC")]`) had no route
    and was listed unused; UIEmailRuleControllerBase.EmailRulesEditCore, public on a concrete base, is an action of
    each `[Route("server/rules")]`-style controller deriving from it. Controllers/Rules.cs: the base's [NonAction]
    and protected methods, the derived controller's static and generic methods and its Dispose are no actions."""
    edit_core = f"{CONTROLLERS}RuleControllerBase.EditCore(System.Int64)"
    assert _endpoints(flow, "/server/rules") == [
        ("GET", "/server/rules", f"{CONTROLLERS}ServerRulesController.Overview", "attribute",
         "src/Flow.Web/Controllers/Rules.cs:20"),
        # inherited: the handler is the base's method, the place the derived controller's name
        ("ANY", "/server/rules", edit_core, "attribute", "src/Flow.Web/Controllers/Rules.cs:18")]
    assert _endpoints(flow, "/plugins") == [
        ("ANY", "/plugins/nfc", f"{CONTROLLERS}NfcController.Submit(System.String)", "attribute",
         "src/Flow.Web/Controllers/Rules.cs:35")]
    # The base is a controller itself (it derives from Controller): conventionally routed under its own name.
    assert _endpoints(flow, "RuleControllerBase") == [
        ("ANY", "/RuleControllerBase/EditCore", edit_core, "conventional", "src/Flow.Web/Controllers/Rules.cs:9")]
    every = flow.call("surfaces_list_endpoints", {"limit": 500})["data"]["endpoints"]
    assert [e["route"] for e in every if "Rule" in (e["handler"] or "")] == [
        "/RuleControllerBase/EditCore", "/server/rules", "/server/rules"]
    env = flow.call("graph_trace_feature", {"entry_point": "POST /plugins/nfc", "depth": 1})
    assert env["ok"] and env["data"]["root"]["symbol_id"] == f"{CONTROLLERS}NfcController.Submit(System.String)"
    # What is no action has no route: nothing calls it (NfcController.Submit was listed here).
    unused = flow.call("symbols_unused", {"project": "Flow.Web", "kinds": ["Method"]})
    assert [u["symbol_id"] for u in unused["data"]["unused"]] == RULES_NON_ACTIONS


def test_an_action_parameter_in_an_attribute_route_is_the_actions_own_name(flow: McpServerProcess) -> None:
    """BTCPay's UIManageController, `[Route("account/{action:lowercase=Index}")]`: ASP.NET substitutes each action's
    own name for {action} (a required route value), so `/account/changepassword` reaches ChangePassword alone; all
    eleven actions were listed as the one template, and a trace by URL was AMBIGUOUS among five. The route is the
    action's, `pattern` as written, `shortest` when the default is the action's own name. Controllers/Manage.cs."""
    manage = [e for path in ("/account", "/Manage")
              for e in flow.call("surfaces_list_endpoints", {"path_filter": path})["data"]["endpoints"]]
    assert [(e["method"], e["route"], e["handler"], e.get("pattern"), e.get("shortest")) for e in manage] == [
        ("GET", "/account/ChangePassword", f"{CONTROLLERS}ManageController.ChangePassword",
         "/account/{action:alpha=Index}", None),
        ("POST", "/account/ChangePassword", f"{CONTROLLERS}ManageController.ChangePassword(System.String)",
         "/account/{action:alpha=Index}", None),
        ("GET", "/account/Index", f"{CONTROLLERS}ManageController.Index", "/account/{action:alpha=Index}", "/account"),
        # `~/{controller}/{action}/{id:int}`: both filled, the parameter after them kept.
        ("GET", "/Manage/Show/{id:int}", f"{CONTROLLERS}ManageController.Show(System.Int32)",
         "/{controller}/{action}/{id:int}", None)]
    for entry, handler in (("GET /account/changepassword", "ChangePassword"),
                           ("POST /account/ChangePassword", "ChangePassword(System.String)"),
                           ("GET /account", "Index"), ("GET /account/index", "Index"),
                           ("GET /manage/show/4", "Show(System.Int32)")):
        trace = flow.call("graph_trace_feature", {"entry_point": entry, "depth": 1})
        assert trace["ok"] and trace["data"]["root"]["symbol_id"] == f"{CONTROLLERS}ManageController.{handler}", entry


TOPICS = "M:Flow.Core.Topics."
ON_SHIPPED = f"{TOPICS}ShippingSubscriber.OnShipped(System.Int32)"
SHIP = f"{TOPICS}Shipping.Ship(System.Int32)"


def test_a_message_published_to_a_topic_runs_the_methods_subscribed_to_it_by_attribute(flow: McpServerProcess) -> None:
    """CAP's `[CapSubscribe("orders.shipped")]` methods are found by reflection and run when
    `capBus.PublishAsync("orders.shipped", o)` publishes: graph_callers said 0 callers, impact_analyze 0, and the trace
    of the publisher stopped at the package's interface. Flow.Core/Topics.cs: a publish naming every string of a
    subscriber's attribute reaches it (a constant's value too), Dapr's `[Topic("pubsub", "stock")]` is reached only by a
    publish on the same pub/sub component (its dead-letter topic is no address), and a topic nobody subscribes to is a
    stop."""
    publish = f"{TOPICS}ICapPublisher.PublishAsync``1(System.String,``0,System.String)"
    ship = flow.call("graph_trace_feature", {"entry_point": SHIP, "depth": 1})
    assert _nodes(ship) == [(1, publish, "Call", None), (1, ON_SHIPPED, "Topic", "orders.shipped")]
    archive = flow.call("graph_trace_feature", {"entry_point": f"{TOPICS}Shipping.Archive(System.Int32)", "depth": 1})
    assert [n["symbol_id"] for n in archive["data"]["nodes"]] == [publish]  # callbackName: is named, no topic
    assert archive["data"]["stops"]["places"][0] == {
        "reason": "no_subscriber", "at": f"{TOPICS}Shipping.Archive(System.Int32)", "topic": "orders.archived",
        "file": "src/Flow.Core/Topics.cs", "line": 42}
    dapr = flow.call("graph_trace_feature", {"entry_point": f"{TOPICS}Dapr.Stocker.Count(System.Int32)", "depth": 1})
    assert _nodes(dapr) == [
        (1, f"{TOPICS}Dapr.DaprClient.PublishEventAsync(System.String,System.String,System.Object)", "Call", None),
        (1, f"{TOPICS}Dapr.StockListener.OnStock(System.Int32)", "Topic", "stock"),
        (1, f"{TOPICS}Dapr.StockListener.OnStockOrDead(System.Int32)", "Topic", "stock")]
    callers = flow.call("graph_callers", {"symbol_id": ON_SHIPPED})
    assert callers["warnings"] == [
        f"It is subscribed to a topic by an attribute and runs when a message is published to it, by 1 member"
        f" ({SHIP}): not call edges; impact_analyze and tests_find walk them (`through: topic`)."]
    impact = flow.call("impact_analyze", {"symbol_id": ON_SHIPPED})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in impact["data"]["callers"]] == [(SHIP, 1, "topic")]
    returned = flow.call("impact_analyze", {"symbol_id": f"{TOPICS}ShippingSubscriber.OnReturned(System.Int32)"})
    assert returned["data"]["callers"] == []  # subscribed, never published


AUDIT = "M:Flow.Core."
WRITE = "(System.String)"
POST_AUDIT = f"{CONTROLLERS}AuditController.Post"
AUDIT_RECORD = f"{AUDIT}AuditSetup.Record(Flow.Core.IAuditSink,System.String)"


def _dispatched(env: dict[str, Any]) -> list[tuple[int, str, str, str | None, bool, str | None]]:
    return [(n["depth"], n["symbol_id"], n["from"]["kind"], n["from"].get("inferred"), n.get("di_registered", False),
             n.get("di_wrapped_by")) for n in env["data"]["nodes"]]


def test_an_interface_call_runs_only_implementations_a_process_of_the_caller_loads(flow: McpServerProcess) -> None:
    """CAP: the trace of a sample app's endpoint ran ICapPublisher.PublishAsync into the test project's private fake
    (registered there), and Hangfire's sample reached the test stub of JobStorage through the library's own call.
    Audit.cs: Flow.Tool (an app Flow.Web never loads) has its own IAuditSink, and registers it."""
    env = flow.call("graph_trace_feature", {"entry_point": "POST /audit", "depth": 3})
    assert _dispatched(env) == [
        (1, f"{AUDIT}IAuditSink.Write{WRITE}", "Call", None, False, None),
        (1, f"{AUDIT}ConsoleAuditSink.Write{WRITE}", "Dispatch", None, True, None),
        # built by the library itself (AuditSetup.Quiet): it may run where DI registers another sink
        (1, f"{AUDIT}NullAuditSink.Write{WRITE}", "Dispatch", "constructed", False, None),
        (1, AUDIT_RECORD, "Call", None, False, None),
        (1, f"{AUDIT}JobClient.Enqueue(System.String)", "Call", None, False, None),
        (1, f"{AUDIT}JobClient.#ctor", "Instantiate", None, False, None),
        (2, f"{AUDIT}JobClient.#ctor(Flow.Core.IJobFactory)", "Call", None, False, None),
        (2, f"{AUDIT}IJobFactory.Create(System.String)", "Call", None, False, None),
        # Flow.Tool registers a decorator of IJobFactory (LoggingJobFactory was the only one run here): not this app
        (2, f"{AUDIT}JobFactory.Create(System.String)", "Dispatch", None, False, None),
        (3, f"{AUDIT}JobFactory.Normalize(System.String)", "Call", None, False, None)]
    # The library's own call runs in Flow.Tool's process too, with its sink.
    library = flow.call("graph_trace_feature", {"entry_point": AUDIT_RECORD, "depth": 1})
    assert [n["symbol_id"] for n in library["data"]["nodes"]] == [
        f"{AUDIT}IAuditSink.Write{WRITE}", f"{AUDIT}ConsoleAuditSink.Write{WRITE}",
        f"{AUDIT}NullAuditSink.Write{WRITE}", f"M:Flow.Tool.FileAuditSink.Write{WRITE}"]
    # A plugin (Flow.Plugin: a library nothing references) may be loaded by any app.
    callees = flow.call("graph_callees", {"symbol_id": POST_AUDIT})
    assert [n["symbol_id"] for n in callees["data"]["nodes"] if n["symbol_id"].endswith(f"Write{WRITE}")] == [
        f"{AUDIT}IAuditSink.Write{WRITE}", f"{AUDIT}ConsoleAuditSink.Write{WRITE}",
        f"{AUDIT}NullAuditSink.Write{WRITE}", f"M:Flow.Plugin.PluginAuditSink.Write{WRITE}"]


def test_callers_of_an_implementation_are_only_those_a_process_loads_with_it(flow: McpServerProcess) -> None:
    """CAP: graph_callers of the test project's fake listed eleven sample apps, none of which loads it; Hangfire's
    sample was a caller of its test stub two levels up, through the library. Impact and tests walk the same."""
    fake = f"M:Flow.Tool.FileAuditSink.Write{WRITE}"
    env = flow.call("graph_callers", {"symbol_id": fake, "depth": 3})
    assert [(n["depth"], n["symbol_id"], n.get("project")) for n in env["data"]["nodes"]] == [
        (1, AUDIT_RECORD, None), (2, f"{AUDIT}AuditSetup.Quiet(System.String)", None),
        (2, "M:Program.<Main>$(System.String[])", "Flow.Tool")]  # not AuditController.Post, which calls Record too
    assert flow.call("impact_analyze", {"symbol_id": fake})["data"]["endpoints"] == []
    plugin = flow.call("graph_callers", {"symbol_id": f"M:Flow.Plugin.PluginAuditSink.Write{WRITE}"})
    assert [n["symbol_id"] for n in plugin["data"]["nodes"]] == [AUDIT_RECORD, POST_AUDIT]


def test_a_decorator_built_in_a_di_factory_runs_the_implementation_it_wraps(flow: McpServerProcess) -> None:
    """Hangfire's sample registers `x => new CustomBackgroundJobFactory(new BackgroundJobFactory(...))`: the library's
    call of IBackgroundJobFactory.Create ran only the sample's decorator, and a trace of the decorator stopped at its
    inner call. Flow.Tool's ToolServices (Audit.cs) registers LoggingJobFactory around the library's JobFactory."""
    env = flow.call("graph_trace_feature", {"entry_point": f"{AUDIT}JobClient.Enqueue(System.String)", "depth": 3})
    wrapped = (f"{AUDIT}JobFactory.Create(System.String)", "Dispatch", None, True, "T:Flow.Tool.LoggingJobFactory")
    assert _dispatched(env) == [
        (1, f"{AUDIT}IJobFactory.Create(System.String)", "Call", None, False, None), (1, *wrapped),
        (1, "M:Flow.Tool.LoggingJobFactory.Create(System.String)", "Dispatch", None, True, None),
        (2, f"{AUDIT}JobFactory.Normalize(System.String)", "Call", None, False, None)]
    decorator = flow.call("graph_trace_feature", {"entry_point": "M:Flow.Tool.LoggingJobFactory.Create(System.String)",
                                                  "depth": 3})
    assert _dispatched(decorator) == [
        (1, f"{AUDIT}IJobFactory.Create(System.String)", "Call", None, False, None), (1, *wrapped),
        (2, f"{AUDIT}JobFactory.Normalize(System.String)", "Call", None, False, None)]
    listed = flow.call("surfaces_list", {"kind": "di", "filter": "JobFactory"})
    assert [(r["implementation"], r["form"], r["project"]) for r in listed["data"]["registrations"]] == [
        ("LoggingJobFactory", "factory", "Flow.Tool")]


def test_impact_of_a_member_razor_markup_uses_reaches_the_page_and_its_route(flow: McpServerProcess) -> None:
    """`@Model.PriceLabel(9.5m)` in Pages/Catalog.cshtml: the Razor generator's code calls PriceLabel, which no
    indexed reference does. impact_analyze answered 0 callers and 0 endpoints; the GeneratedUse fact is a caller at
    its markup line, and the page's GET route renders it."""
    env = flow.call("impact_analyze", {"symbol_id": "M:Flow.Web.Pages.CatalogModel.PriceLabel(System.Decimal)"})
    assert env["answer"] == ("Changing Flow.Web.Pages.CatalogModel.PriceLabel touches 1 caller (1 in source-generated"
                             " code) within depth 4, 0 references in 0 files, 2 files of 1 project in all; 1 endpoint"
                             " and 0 tests reach it.")
    assert env["data"]["callers"] == [
        {"symbol_id": "M:AspNetCoreGeneratedDocument.Pages_Catalog.ExecuteAsync", "depth": 1,
         "file": "src/Flow.Web/Pages/Catalog.cshtml", "line": 8, "through": "generated",
         "generator": "RazorSourceGenerator"}]
    assert env["data"]["endpoints"] == [{"endpoint": "GET /Catalog", "handler": "M:Flow.Web.Pages.CatalogModel.OnGet"}]
    assert env["data"]["projects"] == {"Flow.Web": {"files": 2, "callers": 1}}


def test_keys_read_through_an_interface_implemented_in_another_project(flow: McpServerProcess) -> None:
    """ISettingsReader (Flow.Core) is implemented by ConfigSettingsReader (Flow.Data), which reads `Flow:{name}` from
    the IConfiguration its primary constructor takes (a captured primary-constructor parameter is the root, as a field
    is: such reads were dropped); Flow.Web references both, Flow.Plugin only Flow.Core. Each call's keys come from the
    implementations its own project sees, whichever project asked first."""
    env = flow.call("surfaces_list_config_keys", {"key_filter": "RateLimit"})
    assert [(u["symbol_id"], u["file"], u["line"], u["through"]) for k in env["data"]["keys"] for u in k["usages"]] == [
        ("M:Flow.Web.Throttle.Limit", "src/Flow.Web/Throttle.cs", 7, "M:Flow.Core.ISettingsReader.Read(System.String)")]
    plugin = flow.call("surfaces_list_config_keys", {"project": "Flow.Plugin"})
    assert plugin["data"]["keys"] == []


def test_a_configuration_source_of_the_solutions_own_is_said_beside_undefined_keys(flow: McpServerProcess) -> None:
    """SimplCommerce reads 29 settings (Catalog.ProductPageSize...) from a table through its own
    `builder.Add(new EFConfigSource(setup))`: all used_but_undefined, and the warning named only a design-time
    factory's AddJsonFile. Flow.Web's Program adds TableSettingsSource the same way (TableSettings.cs)."""
    env = flow.call("surfaces_list_config_keys", {"project": "Flow.Web"})
    assert env["warnings"] == [
        "Configuration also comes from sources the index does not read (an undefined key may be set there): "
        "Add(TableSettingsSource) at src/Flow.Web/TableSettings.cs:10."]


def test_a_log_template_after_a_numeric_event_id(flow: McpServerProcess) -> None:
    """SimplCommerce's AccountController logs `_logger.LogInformation(1, "User logged in.")`: the number was taken for
    the template, and 8 of its 12 ILogger templates were missing."""
    logs = flow.call("surfaces_list", {"kind": "logs", "file": "src/Flow.Web/TableSettings.cs"})["data"]["logs"]
    assert [(e["template"], e["level"], e["source"], e["line"], e["confidence"]) for e in logs] == [
        ("Loaded {Count} settings", "Information", "ILogger", 21, "high")]


CALLS = "M:Flow.Core.ServiceCalls.InvoiceProxy."
PAY_ACTION = f"{CONTROLLERS}InvoicesController.Pay(System.String)"


def test_an_http_call_of_a_path_another_app_serves_goes_on_into_its_action(flow: McpServerProcess) -> None:
    """dapr-traffic-control's FineCollectionService calls VehicleRegistrationService through an HttpClient on the Dapr
    sidecar (`GetFromJsonAsync($"vehicleinfo/{licenseNumber}")`): the trace of `POST /exitcam` stopped at the proxy.
    Flow.Core/ServiceCalls.cs: a relative path and Dapr's invoke URL reach the action serving the route (edge `Http`,
    `via` the route); another host's API and a GET of a POST-only route reach nothing."""
    for member in ("Pay(System.Int32)", "PayThroughSidecar(System.Int32)"):
        trace = flow.call("graph_trace_feature", {"entry_point": f"{CALLS}{member}", "depth": 1})
        assert _nodes(trace) == [(1, PAY_ACTION, "Http", "POST /api/invoices/{id}/pay")], member
    for member in ("Rates", "Peek(System.Int32)"):
        trace = flow.call("graph_trace_feature", {"entry_point": f"{CALLS}{member}", "depth": 1})
        assert trace["data"]["nodes"] == [], member
    # The action's own flow follows: the events it publishes reach their subscribers.
    deeper = flow.call("graph_trace_feature", {"entry_point": f"{CALLS}Pay(System.Int32)", "depth": 2})
    subs = "M:Flow.Core.Subscriptions."
    assert _nodes(deeper) == [
        (1, PAY_ACTION, "Http", "POST /api/invoices/{id}/pay"),
        (2, f"{subs}InvoicePaid.#ctor(System.String)", "Instantiate", None),
        (2, f"{subs}IBus.Publish``1(``0)", "Call", None),
        (2, f"{subs}Bus.Publish``1(``0)", "Dispatch", f"{subs}IBus.Publish``1(``0)"),
        (2, f"{subs}StockCounted.#ctor(System.Int32)", "Instantiate", None),
        (2, f"{subs}Ledger.Record(System.String)", "Subscription", f"T:{subs[2:]}InvoicePaid"),
        (2, f"{subs}Mailer.OnInvoicePaid(Flow.Core.Subscriptions.InvoicePaid)", "Subscription",
         f"T:{subs[2:]}InvoicePaid")]
