"""testdata/Todo: davidfowl/TodoApi's shape, every route of a group mapped as a lambda in one MapTodos. The
route's handler is MapTodos, but a route runs only its own lambda: a trace from DELETE /todos/{id} listed what
GET's lambdas call, and tests_find / impact_analyze credited every route of MapTodos with whatever any lambda
reached (TodoApi's DeleteTodos "tested" AsTodoItem; six endpoints "reached" GetTokenAsync, really two)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

MAP_TODOS = "M:Todo.Api.TodoApi.MapTodos(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder)"


@pytest.fixture(scope="module")
def todo(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Todo", tmp_path_factory, home)


def test_each_route_says_where_its_lambda_is(todo: McpServerProcess) -> None:
    env = todo.call("surfaces_list_endpoints", {"path_filter": "/todos"})
    assert [(e["method"], e["route"], e["handler"], e["handler_kind"], e["handler_line"], e["handler_end_line"])
            for e in env["data"]["endpoints"]] == [
        ("GET", "/todos", MAP_TODOS, "lambda", 9, 9), ("GET", "/todos/{id}", MAP_TODOS, "lambda", 11, 12),
        ("DELETE", "/todos/{id}", MAP_TODOS, "lambda", 14, 18),
        ("PUT", "/todos/{id}/archive", MAP_TODOS, "lambda", 21, 25)]


def test_a_library_mapping_health_checks_is_no_web_project(todo: McpServerProcess) -> None:
    """TodoApi's ServiceDefaults was role "web" because its MapDefaultEndpoints maps health checks for its hosts."""
    env = todo.call("repo_overview", {})
    assert {p["name"]: p["role"] for p in env["data"]["projects"]} == {
        "Todo.Api": "web", "Todo.Defaults": "library", "Todo.Tests": "test", "Todo.Web": "web"}
    health = todo.call("surfaces_list_endpoints", {"path_filter": "/health"})
    assert [(e["route"], e["source"], e["handler"]) for e in health["data"]["endpoints"]] == [
        ("/health", "health_checks", DEFAULTS)]


def test_the_openapi_document_and_scalars_page_are_endpoints(todo: McpServerProcess) -> None:
    """davidfowl/TodoApi maps `/openapi/{documentName}.json` and Scalar's `/scalar/v1` through package calls:
    neither was listed."""
    env = todo.call("surfaces_list_endpoints", {"path_filter": "/openapi"})
    assert [(e["method"], e["route"], e["source"], e["handler"], e["line"]) for e in env["data"]["endpoints"]] == [
        ("GET", "/openapi/{documentName}.json", "openapi", MAIN, 20)]
    scalar = todo.call("surfaces_list_endpoints", {"path_filter": "/scalar"})
    assert [(e["method"], e["route"], e["source"], e["line"]) for e in scalar["data"]["endpoints"]] == [
        ("GET", "/scalar/{documentName?}", "scalar", 21)]
    # The framework serves them: they reach nothing Program calls, but are the mapping member's own endpoints.
    store = todo.call("impact_analyze", {"symbol_id": "M:Todo.Api.TodoStore.Find(System.Int32)"})
    assert [e["endpoint"] for e in store["data"]["endpoints"]] == ["GET /todos/{id}"]
    main = todo.call("impact_analyze", {"symbol_id": MAIN, "project": "Todo.Api"})
    assert sorted(e["endpoint"] for e in main["data"]["endpoints"]) == [
        "GET /openapi/{documentName}.json", "GET /scalar/{documentName?}"]


def test_a_trace_goes_on_into_the_declaration_of_a_shared_id_its_project_calls(todo: McpServerProcess) -> None:
    """graph_callees went on only into the declaration of an id several projects declare that a call names; the
    trace of a route went on into every project's (Todo.Web's `AddApplicationServices` calls ScopeCount)."""
    env = todo.call("graph_trace_feature", {"entry_point": "GET /setup", "depth": 3})
    assert (env["data"]["root"]["symbol_id"], env["data"]["root"]["file"]) == (EXTENSIONS, "src/Todo.Api/Extensions.cs")
    assert [(n["symbol_id"], n["depth"]) for n in env["data"]["nodes"]] == [(IDENTITY_URL, 1)]
    # The route is Todo.Api's, whose declaration calls IdentityUrl, not ScopeCount (Todo.Web's does).
    scope = todo.call("impact_analyze", {"symbol_id": SCOPE_COUNT})
    assert scope["data"].get("endpoints", []) == []
    identity = todo.call("impact_analyze", {"symbol_id": IDENTITY_URL})
    assert [e["endpoint"] for e in identity["data"]["endpoints"]] == ["GET /setup"]


def test_a_trace_walks_only_the_routes_own_lambda(todo: McpServerProcess) -> None:
    env = todo.call("graph_trace_feature", {"entry_point": "DELETE /todos/{id}", "depth": 2})
    assert env["ok"], env
    assert [(n["symbol_id"], n["from"]["from"]) for n in env["data"]["nodes"]] == [
        ("M:Todo.Api.TodoStore.Remove(System.Int32)", MAP_TODOS)]
    assert [(f["kind"], f["key"], f.get("method")) for f in env["data"]["root"]["facts"]] == [
        ("Route", "/todos/{id}", "DELETE")]
    listed = todo.call("graph_trace_feature", {"entry_point": "GET /todos", "depth": 2})
    assert [(n["symbol_id"], n["depth"]) for n in listed["data"]["nodes"]] == [
        ("M:Todo.Api.TodoStore.All", 1), ("M:Todo.Api.Todo.AsItem", 1),
        ("M:Todo.Api.TodoItem.#ctor(System.Int32,System.String)", 2)]


def test_tests_and_impact_reach_a_symbol_only_through_the_lambdas_that_call_it(todo: McpServerProcess) -> None:
    remove = todo.call("tests_find", {"symbol_id": "M:Todo.Api.TodoStore.Remove(System.Int32)"})
    # The archive route's lambda reaches Remove through TodoArchive.Archive, another member of the walk.
    assert [(t["test"], t["route"], t["call"]) for t in remove["data"]["tests"]] == [
        ("M:Todo.Tests.TodoApiTests.ArchivesATodo", "PUT /todos/{id}/archive", "PUT /todos/1/archive"),
        ("M:Todo.Tests.TodoApiTests.DeletesATodo", "DELETE /todos/{id}", "DELETE /todos/1")]
    as_item = todo.call("tests_find", {"symbol_id": "M:Todo.Api.Todo.AsItem"})
    assert [(t["test"], t["route"]) for t in as_item["data"]["tests"]] == [
        ("M:Todo.Tests.TodoApiTests.GetsATodo", "GET /todos/{id}"),
        ("M:Todo.Tests.TodoApiTests.ListsTodos", "GET /todos")]
    find = todo.call("impact_analyze", {"symbol_id": "M:Todo.Api.TodoStore.Find(System.Int32)"})
    assert [e["endpoint"] for e in find["data"]["endpoints"]] == ["GET /todos/{id}"]
    assert [t["test"] for t in find["data"]["tests"]] == ["M:Todo.Tests.TodoApiTests.GetsATodo"]


MAIN = "M:Program.<Main>$(System.String[])"
DEFAULTS = "M:Todo.Defaults.Hosting.MapDefaultEndpoints(Microsoft.AspNetCore.Builder.WebApplication)"


def test_two_top_level_programs_are_two_callers(todo: McpServerProcess) -> None:
    """Todo.Api and Todo.Web each declare `Program.<Main>$`: one id, one key. TodoApi's MapDefaultEndpoints had
    "1 caller at Todo.Api/Program.cs:5" for two Programs calling it."""
    env = todo.call("graph_callers", {"symbol_id": DEFAULTS})
    assert env["answer"].startswith("2 bound callers of Todo.Defaults.Hosting.MapDefaultEndpoints"), env["answer"]
    assert [(n["symbol_id"], n["project"], n["file"], n["line"], [e["line"] for e in n["edges"]])
            for n in env["data"]["nodes"]] == [
        (MAIN, "Todo.Api", "src/Todo.Api/Program.cs", 5, [11]),
        (MAIN, "Todo.Web", "src/Todo.Web/Program.cs", 3, [5])]


EXTENSIONS = "M:Extensions.AddApplicationServices(Microsoft.AspNetCore.Builder.WebApplication)"
IDENTITY_URL = "M:Todo.Defaults.Hosting.IdentityUrl(Microsoft.AspNetCore.Builder.WebApplication)"
USE_AUTH = "M:Todo.Defaults.Hosting.UseAuth(Microsoft.AspNetCore.Builder.WebApplication)"
USE_AUDIT = "M:Todo.Defaults.Hosting.UseAudit(Microsoft.AspNetCore.Builder.WebApplication)"
SCOPE_COUNT = "M:Todo.Defaults.Hosting.ScopeCount(Microsoft.AspNetCore.Builder.WebApplication)"
REQUIRE_TENANT = "M:Todo.Defaults.Hosting.RequireTenant(Microsoft.AspNetCore.Builder.WebApplication)"


def test_impact_names_each_program_that_calls(todo: McpServerProcess) -> None:
    """impact_analyze listed one `Program.<Main>$` at the first project's file for every Program reached (eShop:
    `src/Catalog.API/Extensions/Extensions.cs` for Ordering.API's `AddApplicationServices`, Catalog.API counted)."""
    env = todo.call("impact_analyze", {"symbol_id": DEFAULTS})
    assert env["answer"].startswith("Changing Todo.Defaults.Hosting.MapDefaultEndpoints touches 2 callers"), \
        env["answer"]
    assert [(c["symbol_id"], c["depth"], c["file"], c["line"]) for c in env["data"]["callers"]] == [
        (MAIN, 1, "src/Todo.Api/Program.cs", 5), (MAIN, 1, "src/Todo.Web/Program.cs", 3)]
    assert {p: n.get("callers") for p, n in env["data"]["projects"].items()} == {
        "Todo.Api": 1, "Todo.Web": 1, "Todo.Defaults": None}
    # One declaration of an id two projects declare, asked for by project: its own callers only.
    web = todo.call("impact_analyze", {"symbol_id": EXTENSIONS, "project": "Todo.Web"})
    assert [(c["symbol_id"], c["file"]) for c in web["data"]["callers"]] == [(MAIN, "src/Todo.Web/Program.cs")]


def test_the_callees_of_one_programs_main_are_its_own(todo: McpServerProcess) -> None:
    """Each Program calls its own global-namespace `Extensions.AddApplicationServices` (one id in two projects):
    the walk goes on into that project's declaration only."""
    env = todo.call("graph_callees", {"symbol_id": MAIN, "project": "Todo.Web", "depth": 2})
    assert (env["data"]["root"]["file"], env["data"]["root"]["project"]) == ("src/Todo.Web/Program.cs", "Todo.Web")
    # ScopeCount first: Todo.Web's AddApplicationServices calls it too (nodes rank by the edges into them).
    assert [(n["symbol_id"], n["depth"]) for n in env["data"]["nodes"]] == [
        (SCOPE_COUNT, 1), (DEFAULTS, 1), (EXTENSIONS, 1), (USE_AUTH, 1), (USE_AUDIT, 1), (REQUIRE_TENANT, 1)]
    api = todo.call("graph_callees", {"symbol_id": MAIN, "project": "Todo.Api", "depth": 2})
    assert [n["symbol_id"] for n in api["data"]["nodes"] if n["depth"] == 1] == [
        EXTENSIONS, "M:Todo.Api.TodoApi.MapTodos(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder)", DEFAULTS,
        USE_AUTH, USE_AUDIT, SCOPE_COUNT, REQUIRE_TENANT]
    assert [n["depth"] for n in api["data"]["nodes"] if n["symbol_id"] == IDENTITY_URL] == [2]


def test_callers_through_an_id_two_projects_declare_stay_in_the_project_that_calls(todo: McpServerProcess) -> None:
    """eShop: seven services declare `Extensions.AddApplicationServices` in the global namespace; Ordering.API's
    calls AddDefaultAuthentication, and the walk back went on to every Program calling any of the seven (WebApp's
    and Catalog.API's too). A reference names its own project's declaration, so only Todo.Api's Program is a caller."""
    env = todo.call("graph_callers", {"symbol_id": IDENTITY_URL, "depth": 3})
    assert env["answer"].startswith("2 bound callers of Todo.Defaults.Hosting.IdentityUrl"), env["answer"]
    assert [(n["symbol_id"], n["project"], n["file"], n["line"], n["depth"]) for n in env["data"]["nodes"]] == [
        (EXTENSIONS, "Todo.Api", "src/Todo.Api/Extensions.cs", 7, 1),
        (MAIN, "Todo.Api", "src/Todo.Api/Program.cs", 5, 2)]
    web = todo.call("graph_callers", {"symbol_id": EXTENSIONS, "project": "Todo.Web"})
    assert [(n["symbol_id"], n["project"], n["file"]) for n in web["data"]["nodes"]] == [
        (MAIN, "Todo.Web", "src/Todo.Web/Program.cs")]


def test_a_librarys_key_is_missing_only_in_the_hosts_whose_code_reads_it(todo: McpServerProcess) -> None:
    """eShop's ServiceDefaults reads `Identity` in AddDefaultAuthentication, which three of its nine hosts call: the
    key was "undefined" in six hosts that reference the library and never call it. Todo.Web references
    Todo.Defaults too, but only Todo.Api calls IdentityUrl."""
    env = todo.call("surfaces_list_config_keys", {"key_filter": "Identity:Url"})
    assert [(k["key"], k["status"], k["undefined_in"]) for k in env["data"]["keys"]] == [
        ("Identity:Url", "used_but_undefined", ["Todo.Api"])]


def test_a_section_tested_by_exists_and_a_read_with_a_default_lack_nothing(todo: McpServerProcess) -> None:
    """eShop's AddDefaultOpenApi reads `GetSection("Identity")` and returns unless it `Exists()`: Catalog.API, which
    configures no Identity, was said to lack it. TodoApi's `GetConnectionString("Todos") ?? "Data Source=..."` was
    `used_but_undefined` without a word about its default: it still is (nothing sets it), `defaulted`."""
    env = todo.call("surfaces_list_config_keys", {"key_filter": "Auth"})
    assert [(k["key"], k["status"], [u.get("optional") for u in k["usages"]]) for k in env["data"]["keys"]] == [
        ("Auth", "used", ["Auth"]), ("Auth:Audience", "used", ["Auth"])]
    todos = todo.call("surfaces_list_config_keys", {"key_filter": "ConnectionStrings:Todos"})
    assert [(k["key"], k["status"], k["undefined_in"], k["defaulted"],
             [(u["pattern"], u["default"], u["line"]) for u in k["usages"]]) for k in todos["data"]["keys"]] == [
        ("ConnectionStrings:Todos", "used_but_undefined", ["Todo.Api"], True, [("GetConnectionString", True, 15)])]
    scopes = todo.call("surfaces_list_config_keys", {"key_filter": "Scopes"})
    assert [(k["key"], k["status"], [u.get("optional") for u in k["usages"]]) for k in scopes["data"]["keys"]] == [
        ("Scopes", "used", ["Scopes"]), ("Scopes:Read", "used", ["Scopes"]), ("Scopes:Read:todos", "used", [])]
    tenant = todo.call("surfaces_list_config_keys", {"key_filter": "Tenant"})  # `if (!t.Exists()) throw`: required
    assert [(k["key"], k["status"], k.get("undefined_in"), [u.get("optional") for u in k["usages"]])
            for k in tenant["data"]["keys"]] == [
        ("Tenant", "used_but_undefined", ["Todo.Api"], [None]), ("Tenant:Name", "used", None, [])]
    audit = todo.call("surfaces_list_config_keys", {"key_filter": "Audit"})
    assert [(k["key"], k["status"], [u.get("optional") for u in k["usages"]]) for k in audit["data"]["keys"]] == [
        ("Audit", "used", ["Audit"]), ("Audit:Level", "used", ["Audit"])]
    archive = todo.call("surfaces_list_config_keys", {"key_filter": "Archive:Path"})
    assert [(k["key"], k["status"], k["undefined_in"], "defaulted" in k, [u.get("default") for u in k["usages"]])
            for k in archive["data"]["keys"]] == [("Archive:Path", "used_but_undefined", ["Todo.Api"], False, [None])]


def test_a_key_whose_presence_is_tested_is_optional(todo: McpServerProcess) -> None:
    """eShop's WebApp and Catalog.API test `!string.IsNullOrWhiteSpace(GetConnectionString("chatModel"))` before they
    use the AI services: an optional feature, said `used_but_undefined` like a key the app cannot start without. Still
    undefined (nothing sets them), each read and the key now say `optional`; a presence test that throws requires it."""
    env = todo.call("surfaces_list_config_keys", {"key_filter": "ConnectionStrings:ai"})
    assert [(k["key"], k["status"], k["undefined_in"], k.get("optional"),
             [(u["line"], u.get("optional")) for u in k["usages"]]) for k in env["data"]["keys"]] == [
        ("ConnectionStrings:ai", "used_but_undefined", ["Todo.Api"], True, [(25, "ConnectionStrings:ai")])]
    cache = todo.call("surfaces_list_config_keys", {"key_filter": "Cache:Url"})
    assert [(k["key"], k.get("optional"), [(u["line"], u.get("optional")) for u in k["usages"]])
            for k in cache["data"]["keys"]] == [("Cache:Url", True, [(26, "Cache:Url")])]
    license = todo.call("surfaces_list_config_keys", {"key_filter": "License:Key"})
    assert [(k["key"], k["status"], k.get("optional"), [(u["line"], u.get("optional")) for u in k["usages"]])
            for k in license["data"]["keys"]] == [("License:Key", "used_but_undefined", None, [(31, None)])]
    # eShopOnWeb's `if (config["UseOnlyInMemoryDatabase"] != null) { bool.Parse(config["UseOnlyInMemoryDatabase"]!) }`:
    # the second read is where the first was tested present.
    proxy = todo.call("surfaces_list_config_keys", {"key_filter": "Proxy:Url"})
    assert [(k["key"], k["status"], k.get("optional"), [(u["line"], u.get("optional")) for u in k["usages"]])
            for k in proxy["data"]["keys"]] == [
        ("Proxy:Url", "used_but_undefined", True, [(29, "Proxy:Url"), (29, "Proxy:Url")])]


def test_a_fallback_to_a_controller_is_its_actions_endpoint(todo: McpServerProcess) -> None:
    """Kavita's `MapFallbackToController("Index", "Fallback")` serves every SPA path, yet impact_analyze of
    FallbackController.Index said 0 endpoints: the route names the action and its controller, which runs it."""
    env = todo.call("surfaces_list_endpoints", {"path_filter": "nonfile"})
    assert [(e["method"], e["route"], e["source"], e["fallback_action"], e["fallback_controller"], e["file"], e["line"])
            for e in env["data"]["endpoints"]] == [
        ("ANY", "/{*path:nonfile}", "fallback", "Index", "Fallback", "src/Todo.Web/Program.cs", 11)]
    index = todo.call("impact_analyze", {"symbol_id": "M:Todo.Web.FallbackController.Index"})
    assert [e["endpoint"] for e in index["data"]["endpoints"]] == ["ANY /{*path:nonfile}"]


def test_a_route_is_found_from_a_url_with_a_query_and_a_typo_offers_the_nearest(todo: McpServerProcess) -> None:
    """Kavita: `GET /api/want-to-read?seriesId=3` was NOT_FOUND (the query string was taken for the path), and a typo's
    candidates were the first three routes in alphabetical order."""
    env = todo.call("graph_trace_feature", {"entry_point": "GET /setup?verbose=1#top"})
    assert (env["ok"], env["data"]["root"]["symbol_id"]) == (True, EXTENSIONS)
    typo = todo.call("graph_trace_feature", {"entry_point": "GET /setpu"})
    assert (typo["error"]["code"], typo["error"]["candidates"][0]) == (
        "NOT_FOUND", {"entry_point": "GET /setup", "handler": EXTENSIONS})


def test_a_name_with_no_unbound_call_but_declared_says_to_pass_it_as_symbol_id(todo: McpServerProcess) -> None:
    """`refs_find(name=...)` lists calls the compiler could not bind; for a declared member it said "No declared
    symbol ... matches" while its candidates were the declared members."""
    env = todo.call("refs_find", {"name": "ScopeCount"})
    assert (env["error"]["code"], env["error"]["message"]) == (
        "NOT_FOUND", "No unbound reference is named 'ScopeCount', but 1 declared symbol is.")
    assert env["error"]["candidates"][0]["symbol_id"] == SCOPE_COUNT


def test_a_graph_that_cannot_be_paged_offers_no_offset(todo: McpServerProcess) -> None:
    """Kavita: graph_callers' overflow offered `next_offset`, and passing `offset` was refused (no such argument)."""
    env = todo.call("graph_callers", {"symbol_id": SCOPE_COUNT, "depth": 2, "token_budget": 150})
    assert env["truncated"] is True
    assert "next_offset" not in env["overflow"] and "offset" not in env["overflow"]["hint"]


def test_an_optional_route_parameter_is_no_query_string(todo: McpServerProcess) -> None:
    """The query string is cut from a URL given as a route, but `{id?}` in a template is an optional parameter."""
    env = todo.call("graph_trace_feature", {"entry_point": "GET /scalar/{documentName?}"})
    assert env["ok"], env
    assert env["data"]["route"]["route"] == "/scalar/{documentName?}"
