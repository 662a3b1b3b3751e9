"""Route parameter transformers on testdata/Slug (eShopOnWeb's SlugifyParameterTransformer): endpoints are
listed as the app serves them (`/order/my-orders`, not `/Order/MyOrders`), and a transformer whose code does not
say what it writes leaves the route as written and says so. Also jellyfin's DI factory held in a variable."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

SLUGIFY, SHOUT = "T:Slug.Web.SlugifyParameterTransformer", "T:Slug.Web.ShoutTransformer"
ACCOUNT, DASHBOARD = "Slug.Web.Controllers.AccountController", "Slug.Web.Areas.Admin.Controllers.DashboardController"
CART, API = "Slug.Web.Controllers.CartController", "Slug.Web.Api."
HOME = "Slug.Web.Controllers.HomeController"
PROVIDER = "Slug.Web.Api.ProviderControllerBase`1"
REGISTER = "M:Slug.Web.StoreRoutes.Register(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder,System.String)"
INFO = "M:Slug.Web.InfoEndpoints.MapInfoEndpoint(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder,System.String)"


@pytest.fixture(scope="module")
def slug(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Slug", tmp_path_factory, home)


def test_routes_are_listed_as_their_transformers_write_them(slug: McpServerProcess) -> None:
    env = slug.call("surfaces_list_endpoints", {"limit": 50})
    assert env["ok"], env
    assert [(e["method"], e["route"], e["handler"], e["source"], e.get("transformed_by"))
            for e in env["data"]["endpoints"]] == [
        # {controller:slugify=Home}/{action:slugify=Index}: ConstraintMap["slugify"] rewrites both values.
        # app.MapInfoEndpoint("/about"), a Map* extension of the solution's own mapping its path parameter.
        ("GET", "/about", INFO, "minimal", None),
        ("ANY", "/account/sign-in/{id?}", f"M:{ACCOUNT}.SignIn", "conventional", SLUGIFY),
        # Area Admin (AdminControllerBase's [Area]): "admin/" by its defaults, the area pattern; no default pattern.
        ("ANY", "/admin", f"M:{DASHBOARD}.Index", "conventional", None),
        ("ANY", "/Admin/Dashboard/Index/{id?}", f"M:{DASHBOARD}.Index", "conventional", None),
        ("ANY", "/Admin/Dashboard/Stats/{id?}", f"M:{DASHBOARD}.Stats", "conventional", None),
        # Sonarr's routing attributes of the app's own: [V3] builds the controller's prefix in its constructor,
        # [GetById] and [DeleteById] give a verb and a template (CustomRouteAttributes).
        ("GET", "/api/v3/calendar/feed/Sonarr.ics", f"M:{API}FeedController.Ics", "attribute", None),
        # ProviderControllerBase's actions are each derived controller's (the abstract base has no routes of its own).
        ("GET", "/api/v3/indexer", f"M:{PROVIDER}.GetAll", "attribute", SLUGIFY),
        ("GET", "/api/v3/indexer/schema", f"M:{PROVIDER}.Schema", "attribute", SLUGIFY),
        ("POST", "/api/v3/indexer/test", f"M:{PROVIDER}.Test", "attribute", SLUGIFY),
        ("GET", "/api/v3/notification", f"M:{PROVIDER}.GetAll", "attribute", SLUGIFY),
        # NotificationController.Schema overrides without an attribute: the base's [HttpGet("schema")] is its.
        ("GET", "/api/v3/notification/schema", f"M:{API}NotificationController.Schema", "attribute", SLUGIFY),
        ("POST", "/api/v3/notification/test", f"M:{API}NotificationController.Test", "attribute", SLUGIFY),
        # the base's Get(int): NotificationController's; IndexerController hides it with a [NonAction] override
        ("GET", "/api/v3/notification/{id:int}", f"M:{PROVIDER}.Get(System.Int32)", "attribute", SLUGIFY),
        ("GET", "/api/v3/series", f"M:{API}SeriesController.All", "attribute", SLUGIFY),
        ("GET", "/api/v3/series/since", f"M:{API}SeriesController.Since", "attribute", SLUGIFY),
        ("GET", "/api/v3/series/{id:int}", f"M:{API}SeriesController.One(System.Int32)", "attribute", SLUGIFY),
        ("DELETE", "/api/v3/series/{id:int}", f"M:{API}SeriesController.Remove(System.Int32)", "attribute", SLUGIFY),
        # CartController's base carries the app's own [ApiController], not MVC's: conventionally routed all the same.
        ("ANY", "/cart", f"M:{CART}.Index", "conventional", None),
        ("ANY", "/cart/index/{id?}", f"M:{CART}.Index", "conventional", SLUGIFY),
        ("GET", "/health", "M:Program.<Main>$(System.String[])", "minimal", None),
        ("GET", "/health", REGISTER, "minimal", None),
        ("GET", "/home/about-us/{id?}", "M:Slug.Web.Controllers.HomeController.AboutUs", "conventional", SLUGIFY),
        ("ANY", "/home/index/{id?}", "M:Slug.Web.Controllers.HomeController.Index", "conventional", SLUGIFY),
        # loud/{controller:shout}/{action}: ShoutTransformer's work is done by a helper: as written, and said.
        ("GET", "/info", INFO, "minimal", None),  # app.MapInfoEndpoint(): the parameter's default
        ("ANY", "/loud/Account/SignIn", f"M:{ACCOUNT}.SignIn", "conventional", SHOUT),
        ("ANY", "/loud/Cart/Index", f"M:{CART}.Index", "conventional", SHOUT),
        ("GET", "/loud/Home/AboutUs", "M:Slug.Web.Controllers.HomeController.AboutUs", "conventional", SHOUT),
        ("ANY", "/loud/Home/Index", "M:Slug.Web.Controllers.HomeController.Index", "conventional", SHOUT),
        # [Route("[controller]/[action]")] under RouteTokenTransformerConvention(new SlugifyParameterTransformer()).
        ("GET", "/order/detail/{orderId:int}", "M:Slug.Web.Controllers.OrderController.Detail(System.Int32)",
         "attribute", SLUGIFY),
        ("GET", "/order/my-orders", "M:Slug.Web.Controllers.OrderController.MyOrders", "attribute", SLUGIFY),
        ("GET", "/ping", REGISTER, "minimal", None),
        ("ANY", "/signin", f"M:{ACCOUNT}.SignIn", "conventional", None),
        # new { controller = Environment.GetEnvironmentVariable("START") }: no action is known to handle it.
        ("ANY", "/start", None, "conventional", None),
        # MapGet(Feed, ...), Feed a `static readonly string` initialized with a literal.
        ("GET", "/store/feed", REGISTER, "minimal", None)]


def test_a_feature_is_traced_from_the_url_the_app_serves(slug: McpServerProcess) -> None:
    env = slug.call("graph_trace_feature", {"entry_point": "GET /order/my-orders", "depth": 1})
    assert env["ok"], env
    assert env["data"]["root"]["symbol_id"] == "M:Slug.Web.Controllers.OrderController.MyOrders"


def test_the_default_action_of_the_default_controller_is_reached_from_the_root(slug: McpServerProcess) -> None:
    """`{controller:slugify=Home}/{action:slugify=Index}/{id?}`: the defaults are the action's own names (Home,
    Index), compared before the transformer writes them; `/loud` has no defaults: its routes need every segment."""
    index = "M:Slug.Web.Controllers.HomeController.Index"
    listed = slug.call("surfaces_list_endpoints", {"path_filter": "index"})["data"]["endpoints"]
    assert [(e["route"], e.get("shortest")) for e in listed] == [
        ("/Admin/Dashboard/Index/{id?}", "/Admin"), ("/api/v3/indexer", None), ("/api/v3/indexer/schema", None),
        ("/api/v3/indexer/test", None),
        ("/cart/index/{id?}", "/cart"), ("/home/index/{id?}", "/"),
        ("/loud/Cart/Index", None), ("/loud/Home/Index", None)]
    for path in ("/", "/home", "/Home/Index", "/home/index/7"):
        env = slug.call("graph_trace_feature", {"entry_point": f"GET {path}", "depth": 1})
        assert env["ok"] and env["data"]["root"]["symbol_id"] == index, path
    loud = slug.call("graph_trace_feature", {"entry_point": "GET /loud/Home"})
    assert loud["error"]["code"] == "NOT_FOUND"


def test_defaults_and_areas_tie_conventional_routes_to_their_one_action(slug: McpServerProcess) -> None:
    """grandnode's endpoint providers: `MapControllerRoute("AdminLogin", "admin/login/", new { controller = "Login",
    action = "Index", area = ... })` reaches the one action its defaults name; MapAreaControllerRoute's area name is a
    default and a constraint, so its pattern reaches that area's controllers (an [Area] inherited from a base class
    counts) and the default pattern does not."""
    admin = slug.call("surfaces_list_endpoints", {"path_filter": "/admin"})["data"]["endpoints"]
    assert [(e["route"], e["handler"], e["mapped_at"], e.get("shortest")) for e in admin] == [
        ("/admin", f"M:{DASHBOARD}.Index", "src/Slug.Web/Program.cs:24", None),
        ("/Admin/Dashboard/Index/{id?}", f"M:{DASHBOARD}.Index", "src/Slug.Web/Program.cs:22", "/Admin"),
        ("/Admin/Dashboard/Stats/{id?}", f"M:{DASHBOARD}.Stats", "src/Slug.Web/Program.cs:22", None)]
    for path, handler in (("/admin", f"M:{DASHBOARD}.Index"), ("/Admin", f"M:{DASHBOARD}.Index"),
                          ("/Admin/Dashboard/Stats/3", f"M:{DASHBOARD}.Stats"), ("/signin", f"M:{ACCOUNT}.SignIn")):
        env = slug.call("graph_trace_feature", {"entry_point": f"GET {path}", "depth": 1})
        assert env["ok"] and env["data"]["root"]["symbol_id"] == handler, path
    start = slug.call("surfaces_list_endpoints", {"path_filter": "/start"})
    assert [(e["route"], e.get("no_action"), e.get("defaults_unknown")) for e in start["data"]["endpoints"]] == [
        ("/start", True, True)]
    assert "next_actions" not in start  # nothing to trace


def test_a_template_with_run_time_parts_is_listed_from_its_constant_text(slug: McpServerProcess) -> None:
    """grandnode's `MapControllerRoute("Login", $"{pattern}login/", ...)` with `pattern` an optional language segment
    (131 of its 137 storefront routes were missing, without a word): the constant text is the route, the parts the
    app computes are named."""
    env = slug.call("surfaces_list_endpoints", {"path_filter": "/cart"})
    assert [(e["route"], e["handler"], e.get("dynamic_parts")) for e in env["data"]["endpoints"]] == [
        ("/cart", f"M:{CART}.Index", ["prefix"]), ("/cart/index/{id?}", f"M:{CART}.Index", None),
        ("/loud/Cart/Index", f"M:{CART}.Index", None)]
    ping = slug.call("surfaces_list_endpoints", {"path_filter": "/ping"})["data"]["endpoints"]
    assert [(e["method"], e["route"], e["dynamic_parts"], e["handler_kind"]) for e in ping] == [
        ("GET", "/ping", ["prefix"], "lambda")]
    trace = slug.call("graph_trace_feature", {"entry_point": "GET /cart", "depth": 1})
    assert trace["ok"] and trace["data"]["root"]["symbol_id"] == f"M:{CART}.Index"


def test_an_abstract_controllers_actions_are_routes_of_each_controller_deriving_from_it(slug: McpServerProcess) -> None:
    """Sonarr's ProviderControllerBase<...>: IndexerController declares no action and serves the base's eleven
    (they were listed once, under the base's own name); a derived controller hiding one serves its own."""
    env = slug.call("graph_trace_feature", {"entry_point": "POST /api/v3/indexer/test", "depth": 1})
    assert env["ok"] and env["data"]["root"]["symbol_id"] == f"M:{PROVIDER}.Test"
    own = slug.call("graph_trace_feature", {"entry_point": "POST /api/v3/notification/test", "depth": 1})
    assert own["ok"] and own["data"]["root"]["symbol_id"] == f"M:{API}NotificationController.Test"
    # The base's [NonAction] Helper is no route of either.
    assert slug.call("surfaces_list_endpoints", {"path_filter": "helper"})["data"].get("endpoints", []) == []


def test_one_template_served_by_two_handlers_asks_for_the_handler(slug: McpServerProcess) -> None:
    """Sonarr's `GET /status` (two controllers): the route cannot tell them apart, so the hint asks for a handler."""
    env = slug.call("graph_trace_feature", {"entry_point": "GET /health"})
    assert (env["error"]["code"], env["error"]["message"], env["error"]["hint"]) == (
        "AMBIGUOUS", "'GET /health' matches 2 endpoints with the same route template.",
        "Pass the handler's symbol_id as entry_point (the candidates name each).")
    assert [c["handler"] for c in env["error"]["candidates"]] == ["M:Program.<Main>$(System.String[])", REGISTER]


def test_a_route_not_found_names_each_handler_of_the_nearest_routes(slug: McpServerProcess) -> None:
    """CAP's four sample apps serve `ANY /without/transaction`: NOT_FOUND offered the route three times, the same
    text with no handler (blank rows in the text). Each nearest route comes once per handler, with it."""
    env = slug.call("graph_trace_feature", {"entry_point": "GET /healt"})
    assert env["error"]["code"] == "NOT_FOUND"
    assert env["error"]["candidates"] == [
        {"entry_point": "GET /health", "handler": "M:Program.<Main>$(System.String[])"},
        {"entry_point": "GET /health", "handler": REGISTER},
        {"entry_point": "GET /about", "handler": INFO},
        {"entry_point": "GET /loud/Home/AboutUs", "handler": f"M:{HOME}.AboutUs"}]


def test_no_table_in_a_document_store_app_says_why(slug: McpServerProcess) -> None:
    """grandnode runs on MongoDB: an empty table list said "when packages are missing...", a restore problem it
    did not have. A document store among the packages is named instead."""
    env = slug.call("surfaces_list_db_tables", {})
    assert (env["answer"], env["hint"]) == (
        "0 database tables.", "No SQL table in the index: the solution stores data through LiteDB, whose collections "
        "and documents are not tables (not indexed); symbols_search or code_search_text find where it names them.")


def test_the_target_framework_of_a_project_writing_its_output_elsewhere(slug: McpServerProcess) -> None:
    """grandnode's plugins: the framework set in an imported props file, the output path without it (Slug.Web.csproj):
    read from the SDK's preprocessor symbols (it was blank)."""
    projects = slug.call("repo_overview", {})["data"]["projects"]
    assert [(p["name"], p["target_framework"]) for p in projects] == [("Slug.Web", "net10.0")]


def test_files_of_an_app_beside_the_solution_are_not_its(slug: McpServerProcess) -> None:
    """testdata/Slug/outside/Admin is no project of Slug.slnx (Practical.CleanArchitecture keeps its identity servers
    and microservices beside the monolith's solution: 79 of 161 endpoints and 165 config keys were theirs)."""
    keys = slug.call("surfaces_list_config_keys", {"key_filter": "Outside"})
    assert keys["answer"] == "0 configuration keys."
    pages = slug.call("surfaces_list_endpoints", {"path_filter": "console"})
    assert pages["data"].get("endpoints", []) == []


def test_a_factory_held_in_a_variable_is_a_factory_registration(slug: McpServerProcess) -> None:
    """jellyfin's `AddSingleton<IJellyfinDatabaseProvider>(providerFactory!)` read as an instance of Func<...>."""
    env = slug.call("surfaces_list", {"kind": "di", "filter": "IClock"})
    assert [(r["service"], r["lifetime"], r.get("implementation"), r["form"]) for r in env["data"]["registrations"]] \
        == [("IClock", "Singleton", None, "factory")]


def test_a_factory_handing_over_a_registered_service_makes_that_service(slug: McpServerProcess) -> None:
    """BTCPay's `AddSingleton<IHostedService>(sp => sp.GetRequiredService<Mailer>())` had no implementation (5 hosted
    services, ISettingsRepository, IStoreRepository lost), though the two-type form has one. Mailing.cs: a factory
    returning `GetRequiredService<T>()`, `(I)GetRequiredService(typeof(T))`, a block returning `GetService<T>()!`, or
    the typeof form's, makes T, `forwarded`; a trace through IMailQueue dispatches to Mailer."""
    env = slug.call("surfaces_list", {"kind": "di", "file": "Mailing.cs"})
    assert [(r["service"], r["lifetime"], r.get("implementation"), r.get("implementation_id"), r["form"],
             r.get("forwarded"), r["line"]) for r in env["data"]["registrations"]] == [
        ("Mailer", "Singleton", "Mailer", "T:Slug.Web.Mailer", "generic", None, 28),
        ("IHostedService", "Singleton", "Mailer", "T:Slug.Web.Mailer", "factory", True, 29),
        ("IMailQueue", "Singleton", "Mailer", "T:Slug.Web.Mailer", "factory", True, 30),
        ("IMailStats", "Singleton", "Mailer", "T:Slug.Web.Mailer", "factory", True, 31),
        ("IDisposable", "Singleton", "Mailer", "T:Slug.Web.Mailer", "typeof", True, 36)]
    trace = slug.call("graph_trace_feature", {"entry_point": "M:Slug.Web.Mailing.Welcome(Slug.Web.IMailQueue)"})
    assert [(n["symbol_id"], n["from"]["kind"], n.get("di_registered")) for n in trace["data"]["nodes"]] == [
        ("M:Slug.Web.IMailQueue.Enqueue(System.String)", "Call", None),
        ("M:Slug.Web.Mailer.Enqueue(System.String)", "Dispatch", True)]
