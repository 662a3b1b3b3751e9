"""An Aspire app over MCP stdio (testdata/Aspire): what real Aspire code taught (eShop).

- AppHost's SDK (Aspire.AppHost.Sdk) cannot be had, so it is indexed by syntax alone; the configuration it
  gives App (`WithEnvironment("Identity__Url", ...)`, `WithReference(catalogDb)` for
  `AddDatabase("catalogdb")`) still counts as App's: those keys are not reported undefined.
- App adds defaults in code (`AddInMemoryCollection(Defaults.Values)`, jellyfin's pattern): they are defined.
- App reads `ConnectionStrings:catalogdb` through a client integration whose package is missing
  (`builder.AddNpgsqlDbContext<CatalogContext>("catalogdb")`, matched by name: confidence medium).
- AppHost's own `AddPayments(builder, shop)` configures the project resource it is handed (eShop's AddOllama):
  Program hands it App, so `Payments:Gateway` and `ConnectionStrings:ledger` are App's.
- eShopSupport: a helper reads keys made of the names it is handed (`Connect(config, "ledger")` reads `ledger:Type`
  and, through the helper it calls, `ConnectionStrings:ledger`: at the call, `through` the helper).
- eShopSupport: AppHost reads its own `Parameters:DbPassword` (`AddParameter`) and `ConnectionStrings:ledger`
  (`AddConnectionString`), and its project references are not in-process loads; a Python app or an endpoint
  handed to `WithReference` defines no connection string; App's `GetConnectionString(serviceName)` makes the
  connection strings App is given `read_dynamically`, not `defined_but_unused`.
- Bus declares `AddBus(this IHostApplicationBuilder, string connectionName)` without the package of
  IHostApplicationBuilder: App's call hits a use-site error, binds to nothing yet has a type. It is recorded
  as an unbound call, not dropped (eShop's `builder.AddRabbitMqEventBus("eventbus")`, 7 calls).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

MAIN = "M:Program.<Main>$(System.String[])"
CONNECT = "M:Ledger.Connect(Microsoft.Extensions.Configuration.IConfiguration,System.String)"
REQUIRED = "M:Ledger.Required(Microsoft.Extensions.Configuration.IConfiguration,System.String)"


@pytest.fixture(scope="module")
def aspire(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Aspire", tmp_path_factory, home, exit_code=2, restore=False)


def test_the_apphost_configures_the_projects_it_runs(aspire: McpServerProcess) -> None:
    env = aspire.call("surfaces_list_config_keys", {"token_budget": 20000})  # every key, with the status counts
    # OTEL_* (set by Aspire in every project) satisfy reads but are not listed on their own.
    assert env["answer"] == "41 configuration keys."
    assert env["data"]["by_status"] == [{"status": "used", "count": 15}, {"status": "used_but_undefined", "count": 10},
                                        {"status": "defined_but_unused", "count": 5},
                                        {"status": "dynamic", "count": 4},
                                        {"status": "read_dynamically", "count": 4},
                                        {"status": "read_by_framework", "count": 3}]
    keys = {k["key"]: k for k in env["data"]["keys"]}
    assert {k: v["status"] for k, v in keys.items()} == {
        "CallBackUrl": "used", "ConnectionStrings:catalogdb": "used",
        # AddAssistant(app, AssistantTarget.Hosted) gives it App (an enum argument once hid the project it is handed)
        "ConnectionStrings:assistant": "used",
        # App's GetConnectionString(name) may read any connection string (App/Ledger.cs)
        "ConnectionStrings:eventbus": "read_dynamically", "ConnectionStrings:vectors": "read_dynamically",
        "ConnectionStrings:vectors_http": "read_dynamically",
        # AddConnectionString("ledger") makes AppHost read it: nothing defines it for AppHost
        "ConnectionStrings:ledger": "used_but_undefined",
        "Identity:Url": "used", "Parameters:DbPassword": "used", "Payments:Currency": "defined_but_unused",
        "Payments:Channel": "defined_but_unused", "Payments:Sandbox": "defined_but_unused",
        # a list of pairs, `new("Payments:Folder", ...)` (Sonarr's dataProtectionFolder)
        "Payments:Folder": "defined_but_unused",
        "Payments:Endpoint": "used_but_undefined", "Payments:Gateway": "used", "Payments:Retries": "used",
        # Ledger.Connect(..., "ledger") reads it through its parameter: nothing defines it
        "ledger:Type": "used_but_undefined",
        # Required("Audience") on GetSection("Identity") reads it under that section (eShop's GetRequiredValue)
        "Identity:Audience": "used_but_undefined", "Identity": "used",
        # read only where `Auth` exists (an `if (!auth.Exists()) return` guard); nothing configures it
        "Auth": "used_but_undefined", "Auth:Authority": "used_but_undefined",
        # Limit(configuration, "Daily") reads it from the section a local holds
        "Limits": "used_but_undefined", "Limits:Daily": "used_but_undefined",
        # AppHost's own WithReference overload for its ModelResource gives these, not a connection string
        "chat:Type": "used", "chat:ModelName": "used", "ConnectionStrings:chat": "used_but_undefined",
        # a local function reading from a configuration it makes (eShopSupport's Evaluator): read at the call
        "ConnectionStrings:reports": "used_but_undefined",
        # App/Properties/launchSettings.json: `dotnet run` sets the profile's name and its environment variables
        "DOTNET_LAUNCH_PROFILE": "used", "Payments:Mode": "used", "Payments:Trace": "defined_but_unused",
        # set in a callback by the AppHost's own dashboard resource's WithReference(project)
        "DASHBOARD_URLS": "used",
        # App registers service discovery, which reads the Services section
        "Services:inference:https:0": "read_by_framework",
        # WithReference(cluster), an Orleans cluster: its ids and its providers' connection string (no cluster's)
        "Orleans:ClusterId": "read_by_framework", "Orleans:ServiceId": "read_by_framework",
        "ConnectionStrings:cache": "read_dynamically",
        # Aspire sets an AppHost's AppHost:* keys itself
        "AppHost:OtlpApiKey": "used",
        # set by a generic AppHost method on the project its caller names by type argument (bitwarden)
        "SelfHosted": "used",
        '{$"{serviceName}:Type"}': "dynamic", "{name}": "dynamic", "{key}": "dynamic",
        "{limit}": "dynamic"}
    # A Python app and an endpoint handed to WithReference are service discovery: no ConnectionStrings:inference
    # or ConnectionStrings:postgres.
    assert keys["ConnectionStrings:eventbus"]["read_by"] == "GetConnectionString {name} at App/Ledger.cs:10"
    assert [(u["template"], u["line"]) for key in ('{$"{serviceName}:Type"}', "{name}")
            for u in keys[key]["usages"]] == [("*:Type", 8), ("ConnectionStrings:*", 10), ("ConnectionStrings:*", 32)]
    assert [(u["file"], u["line"], u["through"]) for u in keys["ConnectionStrings:reports"]["usages"]] == [
        ("App/Program.cs", 17, MAIN + ".Report(System.String)")]
    # The helper's keys, made of the constant it is handed, are read where it is called (two levels deep).
    assert [(u["pattern"], u["file"], u["line"], u["through"]) for key in ("ledger:Type", "ConnectionStrings:ledger")
            for u in keys[key]["usages"] if u.get("through")] == [
        ("indexer", "App/Program.cs", 12, CONNECT), ("GetConnectionString", "App/Program.cs", 12, CONNECT)]
    assert [(u["line"], u["through"]) for u in keys["Identity:Audience"]["usages"]] == [(13, REQUIRED)]
    assert [(u["line"], u["optional"]) for u in keys["Auth:Authority"]["usages"]] == [(23, "Auth")]
    assert [(u["file"], u["line"]) for u in keys["Limits:Daily"]["usages"]] == [("App/Program.cs", 14)]
    # The AppHost reads Parameters:DbPassword (AddParameter) from its own appsettings.json; "Seed" has a value.
    assert [(u["pattern"], u["line"], u["confidence"]) for u in keys["Parameters:DbPassword"]["usages"]] == [
        ("aspire_parameter", 17, "medium")]
    assert keys["Parameters:DbPassword"]["defined_in"] == [{"file": "AppHost/appsettings.json", "line": 3}]
    assert keys["ConnectionStrings:ledger"]["undefined_in"] == ["AppHost"]
    assert [d["line"] for key in ("ConnectionStrings:vectors", "ConnectionStrings:vectors_http")
            for d in keys[key]["defined_in"]] == [23, 23]
    # Defined in AppHost's code, for App: the key's one project is App (said once, by `projects`).
    assert keys["Identity:Url"]["defined_in"] == [{"file": "AppHost/Program.cs", "line": 12, "source": "aspire"}]
    assert keys["ConnectionStrings:catalogdb"]["defined_in"] == [
        {"file": "AppHost/Program.cs", "line": 8, "source": "aspire"}]
    assert keys["AppHost:OtlpApiKey"]["set_by"] == "Aspire's AppHost (DistributedApplicationBuilder sets AppHost:*)"
    assert {k: v["projects"] for k, v in keys.items()} == {
        **{key: ["App"] for key in keys}, "Parameters:DbPassword": ["AppHost"], "AppHost:OtlpApiKey": ["AppHost"],
        "ConnectionStrings:ledger": ["App", "AppHost"]}
    assert [(u["pattern"], u["line"], u["confidence"]) for u in keys["ConnectionStrings:catalogdb"]["usages"]] == [
        ("connection_name", 6, "medium")]
    # Defaults defined in code (AddInMemoryCollection of a dictionary property): defined where they are added.
    assert keys["Payments:Retries"]["defined_in"] == [{"file": "App/Program.cs", "line": 4, "source": "in_memory"}]
    # ... and by a method that fills a dictionary key by key and returns it (jellyfin's ConvertToConfig()).
    assert [keys[k]["defined_in"] for k in ("Payments:Channel", "Payments:Sandbox")] == [
        [{"file": "App/Program.cs", "line": 4, "source": "in_memory"}]] * 2
    # ... and by a list of key-value pairs, `new("Payments:Folder", ...)`.
    assert keys["Payments:Folder"]["defined_in"] == [{"file": "App/Program.cs", "line": 4, "source": "in_memory"}]
    assert keys["Payments:Endpoint"]["undefined_in"] == ["App"]
    status = aspire.call("repo_status", {})
    levels = {p["name"]: p["semantic_level"] for p in status["data"]["head_baseline"]["projects"]}
    assert levels == {"App": "partial", "AppHost": "syntax_only", "Bus": "partial"}


def test_a_method_of_the_apphost_configures_the_project_it_is_handed(aspire: McpServerProcess) -> None:
    keys = {k["key"]: k for k in aspire.call("surfaces_list_config_keys", {"key_filter": "Payments:Gateway"})[
        "data"]["keys"]}
    assert keys["Payments:Gateway"]["defined_in"] == [{"file": "AppHost/Extensions.cs", "line": 10, "source": "aspire"}]
    assert keys["Payments:Gateway"]["projects"] == ["App"]
    ledger = aspire.call("surfaces_list_config_keys", {"key_filter": "ConnectionStrings:ledger"})["data"]["keys"]
    assert [(k["key"], k["status"], k["defined_in"]) for k in ledger] == [
        ("ConnectionStrings:ledger", "used_but_undefined", [{"file": "AppHost/Extensions.cs", "line": 9,
                                                             "project": "App", "source": "aspire"}])]


def test_a_connection_string_built_from_an_expression_is_given_not_read(aspire: McpServerProcess) -> None:
    """eShop's AddOpenAI(catalogApi, webApp, OpenAITarget.OpenAI): the AppHost builds the connection strings
    (`AddConnectionString(name, cs => cs.Append(..))`) and hands them to the projects. An enum argument of the
    AppHost's own hid which projects the method is handed (the unbound call fitted no overload), so WebApp's
    `ConnectionStrings:chatModel` was undefined in WebApp; and the AppHost was said to read it itself."""
    keys = aspire.call("surfaces_list_config_keys", {"key_filter": "ConnectionStrings:assistant"})["data"]["keys"]
    assert [(k["status"], k["defined_in"],
             [(u["file"], u["line"], u["pattern"], u.get("optional")) for u in k["usages"]]) for k in keys] == [
        ("used", [{"file": "AppHost/Extensions.cs", "line": 28, "source": "aspire"}],
         [("App/Program.cs", 25, "GetConnectionString", "ConnectionStrings:assistant")])]


def test_a_client_integration_registers_its_dbcontext(aspire: McpServerProcess) -> None:
    """eShop's Identity.API and Webhooks.API register their contexts only through Aspire
    (`builder.AddNpgsqlDbContext<WebhooksContext>("webhooksdb")`): they were missing from DI. Unbound here (the
    Npgsql integration's package is missing): matched on a builder, confidence medium."""
    env = aspire.call("surfaces_list", {"kind": "di", "filter": "CatalogContext"})
    assert env["data"]["registrations"] == [{
        "service": "CatalogContext", "lifetime": "Scoped", "implementation": "CatalogContext", "form": "extension",
        "via": "AddNpgsqlDbContext", "service_id": "T:CatalogContext", "implementation_id": "T:CatalogContext",
        "registered_in": MAIN, "project": "App", "file": "App/Program.cs", "line": 6, "confidence": "medium"}]


def test_a_launch_profile_defines_what_dotnet_run_sets(aspire: McpServerProcess) -> None:
    """aspire-samples' AspireShop.Frontend reads `DOTNET_LAUNCH_PROFILE` (Aspire's templates do), which `dotnet run`
    sets from the profile it starts: it read `used_but_undefined`. A profile's environment variables are defined
    for its project; ASPNETCORE_ENVIRONMENT, read by the host, is not listed on its own."""
    keys = {k["key"]: k for k in aspire.call("surfaces_list_config_keys", {"project": "App"})["data"]["keys"]}
    launch = {"file": "App/Properties/launchSettings.json", "source": "launch_settings", "profile": "https"}
    named = ("DOTNET", "Payments:Mode", "Payments:Trace", "ASPNET")
    assert {k: (v["status"], v["defined_in"]) for k, v in keys.items() if k.startswith(named)} == {
        "DOTNET_LAUNCH_PROFILE": ("used", [{**launch, "line": 4}]),
        "Payments:Mode": ("used", [{**launch, "line": 9}]),
        "Payments:Trace": ("defined_but_unused", [{**launch, "line": 10}])}


def test_the_apphosts_own_withreference_overload_is_read_from_its_body(aspire: McpServerProcess) -> None:
    """eShopSupport: `backend.WithReference(chatCompletion)` where chatCompletion is `AddOllama(...)`, a resource of
    the AppHost's own with its own WithReference overload: that overload sets `{name}:Type` and `{name}:LlmModelName`
    and references an endpoint. Aspire's connection string was assumed (Backend's two keys read undefined and
    `ConnectionStrings:chatcompletion` read defined)."""
    keys = {k["key"]: k for k in aspire.call("surfaces_list_config_keys", {"key_filter": "chat"})["data"]["keys"]}
    assert {k: (v["status"], v["defined_in"]) for k, v in keys.items()} == {
        "chat:Type": ("used", [{"file": "AppHost/ModelResource.cs", "line": 18, "source": "aspire"}]),
        "chat:ModelName": ("used", [{"file": "AppHost/ModelResource.cs", "line": 19, "source": "aspire"}]),
        "ConnectionStrings:chat": ("used_but_undefined", [])}
    assert {key: [(u["line"], u.get("through")) for u in keys[key]["usages"]] for key in keys} == {
        "chat:Type": [(15, CONNECT)], "chat:ModelName": [(16, None)], "ConnectionStrings:chat": [(15, CONNECT)]}
    # The dashboard's own WithReference(this IResourceBuilder<DashboardResource>, project) sets DASHBOARD_URLS for the
    # project it is handed, in a callback (aspire-samples' HealthChecksUI); its receiver is no project.
    urls = aspire.call("surfaces_list_config_keys", {"key_filter": "DASHBOARD_URLS"})["data"]["keys"]
    assert [(k["status"], k["defined_in"]) for k in urls] == [
        ("used", [{"file": "AppHost/DashboardResource.cs", "line": 18, "source": "aspire"}])]
    # bitwarden's AddBitwardenService<TProject>: the project is the caller's type argument, not "TProject".
    hosted = aspire.call("surfaces_list_config_keys", {"key_filter": "SelfHosted"})["data"]["keys"]
    assert [(k["status"], k["projects"], k["defined_in"]) for k in hosted] == [
        ("used", ["App"], [{"file": "AppHost/Extensions.cs", "line": 18, "source": "aspire"}])]
    # Aspire's own WithReference still gives App the connection strings of a database and a bus.
    db = aspire.call("surfaces_list_config_keys", {"key_filter": "ConnectionStrings:catalogdb"})["data"]["keys"]
    assert [(k["status"], k["defined_in"][0]["line"]) for k in db] == [("used", 8)]


def test_a_call_with_a_use_site_error_is_unbound_not_dropped(aspire: McpServerProcess) -> None:
    env = aspire.call("graph_callers", {"symbol_id": "M:Aspire.Bus.BusExtensions.AddBus(IHostApplicationBuilder,"
                                                     "System.String)"})
    assert env["answer"] == ("0 bound callers of Aspire.Bus.BusExtensions.AddBus within depth 1 + 1 unbound call "
                             "named AddBus that could be it (in 1 more member).")
    assert env["data"]["unbound_calls"]["items"] == [
        {"name": "AddBus", "receiver": "builder", "kind": "Call", "file": "App/Program.cs", "line": 5, "col": 9,
         "from_symbol_id": MAIN, "depth": 1}]


def test_a_key_asked_for_lists_the_computed_reads_that_may_read_it(aspire: McpServerProcess) -> None:
    """realworld's `GetSection($"Authentication:Schemes:{providerName}")`: asking for `Authentication:Schemes:GitHub`
    answered "0 configuration keys" though a computed read of that shape exists."""
    env = aspire.call("surfaces_list_config_keys", {"key_filter": "Orders:Type"})
    assert [(k["key"], k["status"], [u.get("template") for u in k["usages"]]) for k in env["data"]["keys"]] == [
        ('{$"{serviceName}:Type"}', "dynamic", ["*:Type"])]
