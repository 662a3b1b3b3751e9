"""Architectural facts over MCP on testdata/Web: endpoints, config keys, tables, cards, traces.

Web.Api restores its packages (EF Core, Dapper, Polly): facts there bind (confidence high).
Web.NoPackages uses the same APIs without package references: matched by syntax (medium).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mcp_client import McpServerProcess

MAIN = "M:Program.<Main>$(System.String[])"
GET = "M:Web.Api.Controllers.OrdersController.Get(System.Int32,System.Threading.CancellationToken)"


@pytest.fixture(scope="module")
def web(web_repo: Path, home: Path) -> Iterator[McpServerProcess]:
    server = McpServerProcess(web_repo, {"ROSLYNMAP_HOME": str(home)})
    yield server
    server.close()


def test_endpoints(web: McpServerProcess) -> None:
    env = web.call("surfaces_list_endpoints", {"limit": 100, "token_budget": 6000})
    assert env["answer"] == "56 endpoints (25 GET, 10 ANY, 10 POST, 5 DELETE, 2 PATCH, 2 PUT, 1 HEAD, 1 OPTIONS)."
    got = [(e["method"], e["route"], e["source"]) for e in env["data"]["endpoints"]]
    assert got == [  # by route (case-folded), then method
        ("GET", "/", "razor_page"), ("POST", "/", "razor_page"),
        ("GET", "/Account/Login/{id?}", "conventional"), ("POST", "/Account/Login/{id?}", "conventional"),
        ("ANY", "/Account/Logout/{id?}", "conventional"),
        ("DELETE", "/admin/catalog/cache", "minimal"),
        ("POST", "/admin/flags", "attribute"), ("PATCH", "/admin/flags", "attribute"),
        ("GET", "/admin/items/{id:int}/edit", "razor_page"), ("POST", "/admin/items/{id:int}/edit", "razor_page"),
        ("GET", "/admin/Stats/{page?}", "attribute"), ("PUT", "/admin/users/{id:guid}", "attribute"),
        ("GET", "/api/catalog/items", "minimal"), ("GET", "/api/catalog/reviews/{id:int}", "minimal"),
        ("POST", "/api/Orders", "attribute"), ("POST", "/api/orders", "minimal"),
        # OrdersController.Orphan: no routing attribute of its own, the controller's route for any method.
        ("ANY", "/api/Orders", "attribute"),
        ("ANY", "/api/Orders/search/{term}", "attribute"), ("GET", "/api/Orders/Summary", "attribute"),
        ("GET", "/api/Orders/{id:int}", "attribute"), ("GET", "/api/orders/{id:int}", "minimal"),
        ("PUT", "/api/orders/{id:int}", "minimal"), ("DELETE", "/api/orders/{id:int}", "minimal"),
        ("PATCH", "/api/orders/{id:int}/status", "minimal"), ("GET", "/api/promotions", "minimal"),
        ("GET", "/api/reports/daily", "minimal"),
        ("HEAD", "/api/reports/daily", "minimal"),
        ("GET", "/api/stock/items", "minimal"), ("GET", "/api/stock/items", "minimal"),
        ("GET", "/api/stock/items/{id:int}", "minimal"), ("DELETE", "/api/stock/items/{id:int}", "minimal"),
        ("GET", "/api/v{version:apiVersion}/legacy/ratings/{id:int}", "minimal"),
        ("GET", "/api/v{version:apiVersion}/ratings", "minimal"),
        ("GET", "/api/v{version:apiVersion}/ratings/{id:int}", "minimal"),
        ("DELETE", "/api/v{version:apiVersion}/ratings/{id:int}", "minimal"),
        ("GET", "/Basket/Checkout/{id:int?}", "razor_page"), ("POST", "/Basket/Checkout/{id:int?}", "razor_page"),
        ("POST", "/Basket/Checkout/{id:int?}?handler=ApplyCoupon", "razor_page"),
        ("POST", "/BasketApi.Basket/GetBasket", "grpc"), ("POST", "/BasketApi.Basket/UpdateBasket", "grpc"),
        ("ANY", "/Blog/Index/{id?}", "conventional"), ("ANY", "/Blog/Post/{id?}", "conventional"),
        ("GET", "/brands", "minimal"), ("OPTIONS", "/check", "minimal"), ("GET", "/counter", "blazor"),
        ("GET", "/counter/{Start:int}", "blazor"), ("GET", "/files/{**path}", "attribute"),
        ("ANY", "/healthz", "health_checks"), ("ANY", "/Home/Index/{id?}", "conventional"),
        ("ANY", "/hubs/chat", "signalr"), ("GET", "/invoices/{id:int}", "minimal"),
        ("ANY", "/legacy/{**rest}", "forwarder"),
        ("GET", "/ping", "minimal"), ("DELETE", "/purge/{days:int}", "attribute"),
        ("GET", "/unused", "minimal"), ("ANY", "/{*path:nonfile}", "fallback"),
    ]
    first = next(e for e in env["data"]["endpoints"] if e["route"] == "/api/Orders/{id:int}")
    assert (first["handler"], first["file"], first["line"], first["confidence"]) == (
        GET, "src/Web.Api/Controllers/OrdersController.cs", 18, "high")


def test_api_versions_tell_apart_two_handlers_of_one_route(web: McpServerProcess) -> None:
    """eShop's Catalog API maps /items on a v1 and a v2 group (Asp.Versioning's HasApiVersion on MapGroup),
    and its Ordering API hands a versioned group to another method (the routes carry the group's version)."""
    env = web.call("surfaces_list_endpoints", {"path_filter": "/api/stock"})
    assert [(e["route"], e["handler"], e.get("api_versions")) for e in env["data"]["endpoints"]] == [
        ("/api/stock/items", "M:Web.Api.Endpoints.VersionedEndpoints.ListV1", ["1.0"]),
        ("/api/stock/items", "M:Web.Api.Endpoints.VersionedEndpoints.List", ["2.0"]),
        ("/api/stock/items/{id:int}", "M:Web.Api.Endpoints.VersionedEndpoints.MapStock("
         "Microsoft.AspNetCore.Routing.IEndpointRouteBuilder)", ["1.0", "2.0"]),
        # mapped by MapStockAdmin on the v3 group MapStock hands it
        ("/api/stock/items/{id:int}", "M:Web.Api.Endpoints.VersionedEndpoints.MapStockAdmin("
         "Microsoft.AspNetCore.Routing.IEndpointRouteBuilder)", ["3.0"])]


def test_api_versions_of_a_version_set_follow_the_group(web: McpServerProcess) -> None:
    """fullstackhero's modules build an ApiVersionSet (`NewApiVersionSet().HasApiVersion(new ApiVersion(1))...Build()`)
    in a local, set it on the group with WithApiVersionSet and hand the group to extension methods that map the
    routes: each route carries the set's versions (a field's set too, its deprecated 0.9 included); a route's own
    MapToApiVersion(2.0) narrows it to v2."""
    env = web.call("surfaces_list_endpoints", {"path_filter": "/ratings"})
    ratings = "M:Web.Api.Endpoints.RatingEndpoints.Map{}(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder)"
    assert [(e["method"], e["route"], e["handler"], e.get("api_versions")) for e in env["data"]["endpoints"]] == [
        ("GET", "/api/v{version:apiVersion}/legacy/ratings/{id:int}", ratings.format("RatingById"), ["0.9", "1.0"]),
        ("GET", "/api/v{version:apiVersion}/ratings", ratings.format("Ratings"), ["1.0", "2.0"]),
        ("GET", "/api/v{version:apiVersion}/ratings/{id:int}", ratings.format("RatingById"), ["1.0", "2.0"]),
        ("DELETE", "/api/v{version:apiVersion}/ratings/{id:int}", ratings.format("DeleteRating"), ["2.0"])]


def test_endpoints_of_every_kind(web: McpServerProcess) -> None:
    """Health checks, hubs, fallbacks, gRPC services (one route per service method, handler = the
    override), forwarders, MapMethods with HttpMethods fields, and lambdas named as lambdas."""
    items = web.call("surfaces_list_endpoints", {"limit": 100, "token_budget": 6000})["data"]["endpoints"]
    by_route = {(e["method"], e["route"]): e for e in items}

    def row(method: str, route: str) -> tuple[object, ...]:
        e = by_route[(method, route)]
        extra = {k: v for k, v in e.items() if k not in {"method", "route", "source", "file", "line", "confidence",
                                                          "handler"}}
        return e["handler"], e["file"], e["line"], e["confidence"], extra

    web_program, no_packages = "src/Web.Api/Program.cs", "src/Web.NoPackages/Program.cs"
    assert row("ANY", "/healthz") == (MAIN, web_program, 68, "high", {})
    assert row("ANY", "/hubs/chat") == ("T:Web.Api.Infrastructure.ChatHub", web_program, 69, "high", {})
    assert row("ANY", "/{*path:nonfile}") == (MAIN, web_program, 70, "high", {"fallback_file": "index.html"})
    assert row("OPTIONS", "/check") == (MAIN, web_program, 67, "high", {"handler_kind": "lambda", "handler_line": 67,
                                                                           "handler_end_line": 67})
    basket = "M:Web.NoPackages.Grpc.BasketService."
    assert row("POST", "/BasketApi.Basket/GetBasket") == (basket + "GetBasket(System.String)", no_packages, 18,
                                                           "medium", {})
    assert row("POST", "/BasketApi.Basket/UpdateBasket")[0] == basket + "UpdateBasket(System.String,System.String)"
    assert row("ANY", "/legacy/{**rest}") == (MAIN, no_packages, 19, "medium",
                                               {"destination": "http://legacy.internal"})
    # A lambda that only forwards to a method of the solution: that method is the handler.
    assert row("GET", "/brands") == ("M:Web.Api.Endpoints.BrandEndpoints.ListAsync(System.Int32)",
                                     "src/Web.Api/Endpoints/BrandEndpoints.cs", 7, "high",
                                     {"handler_kind": "lambda_forwarding", "handler_line": 7, "handler_end_line": 7})
    # A method group is the handler itself.
    assert row("POST", "/api/orders")[0] == ("M:Web.Api.Endpoints.OrderEndpoints.Create(Web.Api.Data.Order,"
                                             "Web.Api.Services.IOrderService,System.Threading.CancellationToken)")


def test_conventional_routes_apply_to_controllers_without_route_attributes(web: McpServerProcess) -> None:
    """MapControllerRoute's pattern filled in for each action of AccountController and HomeController
    (no [Route]): [HttpGet]/[HttpPost] without a template constrain the verb, [ActionName] renames,
    [NonAction] and non-public methods are not actions."""
    items = web.call("surfaces_list_endpoints", {"limit": 100, "token_budget": 6000})["data"]["endpoints"]
    got = [(e["method"], e["route"], e["handler"], e["line"], e["pattern"], e["mapped_at"], e.get("shortest"))
           for e in items if e["source"] == "conventional"]
    account, pattern, mapped = "M:Web.Api.Controllers.AccountController.", "/{controller=Home}/{action=Index}/{id?}", \
        "src/Web.Api/Program.cs:54"
    assert got == [
        ("GET", "/Account/Login/{id?}", account + "Login(System.String)", 9, pattern, mapped, None),
        ("POST", "/Account/Login/{id?}", account + "LoginAsync(System.String,System.String)", 13, pattern, mapped,
         None),
        ("ANY", "/Account/Logout/{id?}", account + "Logout", 15, pattern, mapped, None),
        # {action=Index}: `/Blog` reaches BlogController.Index; {controller=Home} too: `/` reaches HomeController's.
        ("ANY", "/Blog/Index/{id?}", BLOG + "Index", 9, pattern, mapped, "/Blog"),
        ("ANY", "/Blog/Post/{id?}", BLOG + "Post(System.Int32)", 11, pattern, mapped, None),
        ("ANY", "/Home/Index/{id?}", "M:Web.Api.Controllers.HomeController.Index", 8, pattern, mapped, "/"),
    ]
    trace = web.call("graph_trace_feature", {"entry_point": "POST /Account/Login/{id?}", "depth": 1})
    assert trace["data"]["root"]["symbol_id"] == account + "LoginAsync(System.String,System.String)"


BLOG = "M:Web.Api.Controllers.BlogController."


def test_conventional_routes_are_reached_with_their_defaulted_segments_left_out(web: McpServerProcess) -> None:
    """Blogifier's `{controller=Home}/{action=Index}/{id?}`: a segment with a default may be left out when every
    segment after it may be too. `/Home`, `/Home/Index` and `/Home/Index/5` reach HomeController.Index (and `/`
    would, but the Razor page at `/` is the exact route, and ASP.NET orders pages before conventional routes);
    `/Blog` reaches BlogController.Index; Post needs its action segment; AccountController has no Index."""
    def root(entry: str) -> str:
        env = web.call("graph_trace_feature", {"entry_point": entry, "depth": 1})
        return str(env["data"]["root"]["symbol_id"] if env["ok"] else env["error"]["code"])

    home = "M:Web.Api.Controllers.HomeController.Index"
    assert [root(f"GET {path}") for path in ("/Home", "/home/index", "/Home/Index/5", "/Home/Index/")] == [home] * 4
    assert root("GET /") == "M:Web.Api.Pages.IndexModel.OnGet"
    assert [root(f"POST {path}") for path in ("/Blog", "/Blog/Index", "/blog/index/3")] == [BLOG + "Index"] * 3
    assert [root(f"GET {path}") for path in ("/Blog/Post", "/Blog/Post/3")] == [BLOG + "Post(System.Int32)"] * 2
    assert [root(f"GET {path}") for path in ("/Account", "/Blog/Index/3/4", "/Home/About")] == ["NOT_FOUND"] * 3
    # The list keeps the filled template, with the shortest URL beside it; a path_filter on that URL finds it.
    listed = web.call("surfaces_list_endpoints", {"path_filter": "/Blog"})["data"]["endpoints"]
    assert [(e["route"], e.get("shortest")) for e in listed] == [("/Blog/Index/{id?}", "/Blog"),
                                                                  ("/Blog/Post/{id?}", None)]


def test_routes_and_keys_built_from_constant_interpolated_strings(web: McpServerProcess) -> None:
    """Blogifier's `[HttpGet($"{BlogifierConstant.StorageRowPhysicalRoot}/{{**slug}}")]` and
    `configuration[$"{BlogifierConstant.Key}:FileExtensions"]`: C# 10 constant interpolated strings are constants
    (FilesController.cs), a route and a key like any other, not a dropped route and a dynamic read."""
    files = web.call("surfaces_list_endpoints", {"path_filter": "/files"})["data"]["endpoints"]
    download = "M:Web.Api.Controllers.FilesController.Download(System.String)"
    assert [(e["method"], e["route"], e["handler"], e["source"], e["file"], e["line"]) for e in files] == [
        ("GET", "/files/{**path}", download, "attribute", "src/Web.Api/Controllers/FilesController.cs", 25)]
    trace = web.call("graph_trace_feature", {"entry_point": "GET /files/docs/a.pdf", "depth": 1})
    assert trace["data"]["root"]["symbol_id"] == download
    keys = web.call("surfaces_list_config_keys", {"key_filter": "Files:"})["data"]["keys"]
    assert [(k["key"], k["status"], [(u["pattern"], u["symbol_id"], u["line"], u.get("dynamic")) for u in k["usages"]])
            for k in keys] == [("Files:Extensions", "used", [
                ("indexer", "M:Web.Api.Controllers.FilesController.#ctor("
                 "Microsoft.Extensions.Configuration.IConfiguration)", 21, None)])]
    # A hole that is no constant keeps the read dynamic, its constant holes filled in (the template).
    dynamic = web.call("surfaces_list_config_keys", {"status": "dynamic"})["data"]["keys"]
    assert [(k["key"], k["usages"][0].get("template")) for k in dynamic] == [
        ('{$"{FileSettings.Section}:Blocked:{path}"}', "Files:Blocked:*"),
        ('{configuration["Features:ActiveFlag"]!}', None),
        # a feature filter's parameters (test_a_feature_filters_parameters_are_no_root_keys)
        ("{context.Parameters}:AllowedTenants", "FeatureManagement:*:EnabledFor:*:Parameters:AllowedTenants"),
        ("{context.Parameters}:Everyone", "FeatureManagement:*:EnabledFor:*:Parameters:Everyone"),
        ("{context.Parameters}:IgnoreCase", "FeatureManagement:*:EnabledFor:*:Parameters:IgnoreCase")]


def test_a_filter_matching_nothing_says_how_many_the_index_holds(web: McpServerProcess) -> None:
    """An empty answer under a filter is not an empty index (surfaces_list_db_tables' wording)."""
    def hint(tool: str, args: dict[str, str]) -> tuple[str, str]:
        env = web.call(tool, args)
        return env["answer"], env["hint"]

    assert hint("surfaces_list_endpoints", {"path_filter": "/row"}) == (
        "0 endpoints match '/row'.", "No endpoint whose route contains '/row' (56 endpoints in the index). "
        "Call surfaces_list_endpoints without path_filter to see them.")
    assert hint("surfaces_list_endpoints", {"path_filter": "/files", "http_method": "patch"})[1] == (
        "No PATCH endpoint whose route contains '/files' (56 endpoints in the index). Call surfaces_list_endpoints "
        "without path_filter and http_method to see them.")
    assert hint("surfaces_list", {"kind": "di", "filter": "Nope"}) == (
        "0 DI registrations.", "No DI registration whose service or implementation contains 'Nope' (35 DI "
        "registrations in the index). Call surfaces_list(kind=\"di\") without filter to see them.")
    assert hint("surfaces_list", {"kind": "logs", "level": "Critical", "file": "Program.cs"})[1] == (
        "No log template of level 'Critical' in a file matching 'Program.cs' (25 log templates in the index). "
        "Call surfaces_list(kind=\"logs\") without level and file to see them.")
    assert hint("surfaces_list_config_keys", {"key_filter": "Nope:Nothing"})[1] == (
        "No configuration key containing 'Nope:Nothing' (39 configuration keys in the index). "
        "Call surfaces_list_config_keys without key_filter to see them.")


def test_razor_pages_and_blazor_components(web: McpServerProcess) -> None:
    """Pages/Index, Pages/Basket/Checkout ("{id:int?}" appended to the folder route, a named handler),
    Areas/Admin/Pages/EditCatalogItem (an absolute @page) and a routable Blazor component."""
    items = web.call("surfaces_list_endpoints", {"limit": 100, "token_budget": 6000})["data"]["endpoints"]
    got = [(e["method"], e["route"], e["handler"], e["file"], e["line"], e.get("page_handler"), e.get("area"))
           for e in items if e["source"] in ("razor_page", "blazor")]
    checkout, edit = "M:Web.Api.Pages.Basket.CheckoutModel.", "M:Web.Api.Areas.Admin.Pages.EditCatalogItemModel."
    index, checkout_page = "src/Web.Api/Pages/Index.cshtml", "src/Web.Api/Pages/Basket/Checkout.cshtml"
    edit_page = "src/Web.Api/Areas/Admin/Pages/EditCatalogItem.cshtml"
    counter = "src/Web.Api/Components/Pages/Counter.razor"
    assert got == [
        ("GET", "/", "M:Web.Api.Pages.IndexModel.OnGet", index, 1, None, None),
        ("POST", "/", "M:Web.Api.Pages.IndexModel.OnPostAsync", index, 1, None, None),
        ("GET", "/admin/items/{id:int}/edit", edit + "OnGetAsync(System.Int32)", edit_page, 1, None, "Admin"),
        ("POST", "/admin/items/{id:int}/edit", edit + "OnPostAsync(System.Int32)", edit_page, 1, None, "Admin"),
        ("GET", "/Basket/Checkout/{id:int?}", checkout + "OnGet(System.Nullable{System.Int32})", checkout_page, 1,
         None, None),
        ("POST", "/Basket/Checkout/{id:int?}", checkout + "OnPostAsync", checkout_page, 1, None, None),
        ("POST", "/Basket/Checkout/{id:int?}?handler=ApplyCoupon", checkout + "OnPostApplyCoupon(System.String)",
         checkout_page, 1, "ApplyCoupon", None),
        ("GET", "/counter", "T:Web.Api.Components.Pages.Counter", counter, 1, None, None),
        ("GET", "/counter/{Start:int}", "T:Web.Api.Components.Pages.Counter", counter, 2, None, None),
    ]
    assert next(e for e in items if e["route"] == "/counter")["injects"] == ["Web.Api.Services.IClock"]
    # An optional parameter may be left out of a concrete path.
    trace = web.call("graph_trace_feature", {"entry_point": "POST /basket/checkout", "depth": 1})
    assert trace["data"]["root"]["symbol_id"] == checkout + "OnPostAsync"


def test_group_prefixes_follow_groups_handed_to_other_methods(web: McpServerProcess) -> None:
    """CatalogEndpoints.cs maps routes on route-builder parameters; Program.cs hands them groups:
    `api.MapGroup("/catalog").MapCatalog()` (an extension receiver), MapCatalog passes its own group on
    to MapReviews, `MapCatalogAdmin(app.MapGroup("/admin"))` (an argument), and `api.MapPromotions()`
    whose routes hang off a group local made from its parameter."""
    catalog = "M:Web.Api.Endpoints.CatalogEndpoints."
    env = web.call("surfaces_list_endpoints", {"path_filter": "catalog"})
    got = [(e["method"], e["route"], e["handler"], e["file"], e["line"]) for e in env["data"]["endpoints"]]
    file = "src/Web.Api/Endpoints/CatalogEndpoints.cs"
    assert got == [
        ("DELETE", "/admin/catalog/cache",
         catalog + "MapCatalogAdmin(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder)", file, 17),
        ("GET", "/api/catalog/items", catalog + "MapCatalog(Microsoft.AspNetCore.Routing.RouteGroupBuilder)", file, 8),
        ("GET", "/api/catalog/reviews/{id:int}", catalog + "MapReviews(Microsoft.AspNetCore.Routing.RouteGroupBuilder)",
         file, 14),
    ]
    promotions = web.call("surfaces_list_endpoints", {"path_filter": "promotions"})["data"]["endpoints"]
    assert [(e["route"], e["line"]) for e in promotions] == [("/api/promotions", 22)]
    trace = web.call("graph_trace_feature", {"entry_point": "GET /api/catalog/reviews/5"})
    assert trace["data"]["root"]["symbol_id"] == catalog + "MapReviews(Microsoft.AspNetCore.Routing.RouteGroupBuilder)"
    assert trace["data"]["route"]["route"] == "/api/catalog/reviews/{id:int}"


def test_endpoint_filters_apply_before_limit(web: McpServerProcess) -> None:
    env = web.call("surfaces_list_endpoints", {"http_method": "get", "path_filter": "orders", "limit": 1})
    assert env["overflow"]["total"] == 3 and env["overflow"]["shown"] == 1
    assert env["data"]["endpoints"][0]["route"] == "/api/Orders/Summary"


def test_config_keys_used_and_defined(web: McpServerProcess) -> None:
    env = web.call("surfaces_list_config_keys", {"limit": 100, "key_filter": "", "token_budget": 8000})
    assert env["answer"] == "39 configuration keys."
    assert env["data"]["by_status"] == [
        {"status": "used", "count": 23}, {"status": "defined_but_unused", "count": 6},
        {"status": "dynamic", "count": 5}, {"status": "bound_unset", "count": 2},
        {"status": "used_but_undefined", "count": 2}, {"status": "read_by_framework", "count": 1}]
    keys = web.call("surfaces_list_config_keys", {"limit": 20})["data"]["keys"] + \
        web.call("surfaces_list_config_keys", {"limit": 20, "offset": 20})["data"]["keys"]
    status = {k["key"]: k["status"] for k in keys}
    assert len(status) == 39
    assert {k for k, s in status.items() if s == "used_but_undefined"} == {"Features:ActiveFlag",
                                                                             "Features:MaxPageSize"}
    # Payments:Webhook, no property of PaymentOptions: Configure<PaymentOptions>(GetSection("Payments")) binds the
    # properties' keys only (the section handed as an argument made every key under it `used`).
    assert {k for k, s in status.items() if s == "defined_but_unused"} == {
        "Billing:Url", "Legacy:Endpoint", "Payments:Webhook", "Search:Backend:Region", "Search:Legacy", "Unused:Flag"}
    assert status["Logging:LogLevel:Default"] == "read_by_framework"  # the host's logging reads it
    assert status["Payments:Provider"] == "used"  # covered by Configure<PaymentOptions>(GetSection("Payments"))
    # `[ConfigurationKeyName("api_key")] ApiKey`: the binder reads the key the attribute names (ApiKey was
    # `bound_unset` and api_key merely under a read section).
    assert status["Payments:api_key"] == "used" and "Payments:ApiKey" not in status
    conn = next(k for k in keys if k["key"] == "ConnectionStrings:Main")
    # The key's one project and a high confidence are said once, not per place.
    assert (conn["projects"], conn["usages"]) == (["Web.Api"], [
        {"pattern": "GetConnectionString", "symbol_id": MAIN, "file": "src/Web.Api/Program.cs", "line": 11}])
    assert conn["defined_in"] == [{"file": "src/Web.Api/appsettings.json", "line": 8}]
    default = next(k for k in keys if k["key"] == "Logging:LogLevel:Default")
    assert default["defined_in"] == [
        {"file": "src/Web.Api/appsettings.Development.json", "line": 4, "environment": "Development"},
        {"file": "src/Web.Api/appsettings.json", "line": 4}]
    missing = web.call("surfaces_list_config_keys", {"status": "used_but_undefined"})
    assert missing["answer"] == "2 configuration keys are used_but_undefined, of 39."
    # Sources the index cannot read (Infrastructure/LegacyConfiguration.cs, Sonarr's config.xml): said beside them.
    assert missing["warnings"] == [
        "Configuration also comes from sources the index does not read (an undefined key may be set there): "
        "AddXmlFile(legacy.xml), AddEnvironmentVariables(SHOP_) at "
        "src/Web.Api/Infrastructure/LegacyConfiguration.cs:8."]
    # (its AddJsonFile("appsettings.Local.json") is an appsettings file: read from the file, when there is one)
    assert [k["key"] for k in missing["data"]["keys"]] == ["Features:ActiveFlag", "Features:MaxPageSize"]
    chained = next(k for k in keys if k["key"] == "Jobs:Cleanup:IntervalSeconds")
    assert [u["pattern"] for u in chained["usages"]] == ["indexer"]


SETUP = "M:Web.Api.Infrastructure.ConfigurationSetup.AddCatalogConfiguration(" \
    "Microsoft.Extensions.DependencyInjection.IServiceCollection,Microsoft.Extensions.Configuration.IConfiguration)"


def test_bound_option_types_yield_their_keys(web: McpServerProcess) -> None:
    """Configure<T>(configuration) at the root, AddOptions<T>().BindConfiguration(nameof(T)),
    GetSection(..).Get<T>() with a nested class, the non-generic GetValue(typeof(string), key), and
    an indirect key reported as dynamic (ConfigurationSetup.cs)."""
    def usages(fragment: str) -> list[tuple[object, ...]]:
        keys = web.call("surfaces_list_config_keys", {"key_filter": fragment, "limit": 20})["data"]["keys"]
        return [(k["key"], k["status"], [(u["pattern"], u["line"], u.get("type")) for u in k["usages"]])
                for k in keys]

    assert usages("Catalog") == [
        ("CatalogBaseUrl", "used", [("bound_property", 8, "CatalogSettings"), ("GetValue", 11, "string")]),
        ("CatalogOptions", "used", [("Bind", 9, "CatalogOptions")]),
        ("CatalogOptions:PicBaseUrl", "used", [("bound_property", 9, "CatalogOptions")]),
        ("CatalogOptions:UseCustomizationData", "bound_unset", [("bound_property", 9, "CatalogOptions")]),
    ]
    assert usages("Search") == [
        ("Search", "used", [("GetSection", 10, None), ("Get", 10, "SearchOptions")]),
        ("Search:Backend", "used", [("bound_property", 10, "SearchOptions")]),
        # SearchBackend binds Url: Region, under it, is no property's (a nested options class reads its own keys).
        ("Search:Backend:Region", "defined_but_unused", []),
        ("Search:Backend:Url", "used", [("bound_property", 10, "SearchBackend")]),
        ("Search:Fields", "bound_unset", [("bound_property", 10, "SearchOptions")]),  # get-only list: bound too
        # Bound to SearchOptions, the section reads its properties' keys only (grandnode's
        # ClearPluginShadowDirectoryOnStartup, no property of ExtensionsConfig, was `used`).
        ("Search:Legacy", "defined_but_unused", []),
        ("Search:PageSize", "used", [("bound_property", 10, "SearchOptions")]),       # Computed (no setter): not
    ]
    # bound_unset says where: the hosts running the binding whose appsettings leave it at its default.
    fields = web.call("surfaces_list_config_keys", {"key_filter": "Search:Fields"})["data"]["keys"][0]
    assert fields["undefined_in"] == ["Web.Api"]
    page = web.call("surfaces_list_config_keys", {"key_filter": "Search:PageSize"})["data"]["keys"][0]
    assert page["usages"][0]["symbol_id"] == SETUP
    assert page["usages"][0]["property"] == "P:Web.Api.Infrastructure.SearchOptions.PageSize"
    assert usages("Shipping:") == [
        ("Shipping:BaseUrl", "used", [("bound_property", 17, "ShippingOptions")]),
        ("Shipping:Region", "used", [("indexer", 15, None), ("bound_property", 17, "ShippingOptions")]),
    ]
    assert usages("ActiveFlag") == [
        ("Features:ActiveFlag", "used_but_undefined", [("indexer", 12, None)]),
        ('{configuration["Features:ActiveFlag"]!}', "dynamic", [("indexer", 12, None)]),
    ]


def test_config_keys_are_checked_per_project(web: McpServerProcess) -> None:
    """Features:MaxPageSize is defined only in Web.NoPackages' appsettings.json: Web.Api, which reads it,
    still lacks it; Billing:Url (Web.NoPackages) is read nowhere."""
    page = web.call("surfaces_list_config_keys", {"key_filter": "MaxPageSize"})["data"]["keys"][0]
    assert (page["status"], page["undefined_in"], page["projects"]) == (
        "used_but_undefined", ["Web.Api"], ["Web.Api", "Web.NoPackages"])
    assert page["defined_in"] == [{"file": "src/Web.NoPackages/appsettings.json", "line": 6,
                                   "project": "Web.NoPackages"}]
    scoped = web.call("surfaces_list_config_keys", {"project": "Web.NoPackages"})
    assert scoped["answer"] == "3 configuration keys."
    assert scoped["data"]["by_status"] == [{"status": "defined_but_unused", "count": 2}, {"status": "used", "count": 1}]
    assert [k["key"] for k in scoped["data"]["keys"]] == ["Billing:Url", "FeatureManagement:Reports",
                                                         "Features:MaxPageSize"]
    # [FeatureGate("Reports")] and IsEnabledAsync("Reports") read it (Microsoft.FeatureManagement's section).
    flag = next(k for k in scoped["data"]["keys"] if k["key"] == "FeatureManagement:Reports")
    assert (flag["status"], [u["pattern"] for u in flag["usages"]]) == ("used", ["feature_flag", "feature_flag"])


def test_a_feature_filters_parameters_are_no_root_keys(web: McpServerProcess) -> None:
    """fullstackhero's TenantFeatureFilter reads `context.Parameters.GetSection("AllowedTenants").Get<string[]>()`:
    Microsoft.FeatureManagement hands it the Parameters section of the flag's filter entry, so its keys (an indexer's
    and a bound class's too) are read dynamically under it, `FeatureManagement:*:EnabledFor:*:Parameters:Key`, as
    under a handed IConfigurationSection: no root `AllowedTenants` used_but_undefined."""
    keys = web.call("surfaces_list_config_keys", {"key_filter": "{context.Parameters}"})["data"]["keys"]
    under = "FeatureManagement:*:EnabledFor:*:Parameters:"
    assert [(k["key"], k["status"], [(u["pattern"], u["line"], u.get("type"), u["template"]) for u in k["usages"]])
            for k in keys] == [
        ("{context.Parameters}:AllowedTenants", "dynamic", [("GetSection", 14, None, under + "AllowedTenants"),
                                                            ("Get", 14, "string[]", under + "AllowedTenants")]),
        ("{context.Parameters}:Everyone", "dynamic", [("indexer", 17, None, under + "Everyone")]),
        ("{context.Parameters}:IgnoreCase", "dynamic", [("bound_property", 15, "TenantFilterSettings",
                                                         under + "IgnoreCase")])]
    assert [k["key"] for k in web.call("surfaces_list_config_keys", {"key_filter": "AllowedTenants"})["data"]["keys"]] \
        == ["{context.Parameters}:AllowedTenants"]


def test_di_registrations_list_with_extensions(web: McpServerProcess) -> None:
    env = web.call("surfaces_list", {"kind": "di", "limit": 100})
    assert env["answer"] == "35 DI registrations (19 Singleton, 11 Scoped, 3 Transient, 2 unknown)."
    got = [(r["service"], r.get("lifetime"), r.get("implementation"), r["form"], r.get("via"), r["line"],
            r["confidence"]) for r in env["data"]["registrations"]]
    # services.Configure<T>(section or options => ...) registers IOptions<T>, as AddOptions<T>() does
    options = [g for g in got if g[4] == "Configure"]
    assert options == [("IOptions<CatalogSettings>", "Singleton", None, "extension", "Configure", 8, "high"),
                       ("IOptions<JwtIssuerOptions>", "Singleton", None, "extension", "Configure", 8, "high"),
                       ("IOptions<PaymentOptions>", "Singleton", None, "extension", "Configure", 16, "high")]
    got = [g for g in got if g[4] != "Configure"]
    assert got[:4] == [
        ("IOptions<CatalogOptions>", "Singleton", None, "extension", "AddOptions", 9, "high"),
        ("AddCatalogConfiguration", None, None, "extension", "AddCatalogConfiguration", 18, "high"),
        ("IMemoryCache", "Singleton", None, "extension", "AddMemoryCache", 18, "high"),  # chained on the own extension
        ("INotifier", "Scoped", "EmailNotifier", "generic", None, 14, "high"),  # DescriptorSetup.cs, by file
    ]
    assert ("IOptions<ShippingOptions>", "Singleton", None, "extension", "AddOptions", 17, "high") in got
    own = next(r for r in env["data"]["registrations"] if r.get("via") == "AddCatalogConfiguration")
    assert (own["target"], own["registered_in"]) == (SETUP, SETUP.replace("AddCatalogConfiguration", "AddWebApi"))
    keyed = next(r for r in env["data"]["registrations"] if r.get("service_key"))
    assert (keyed["service"], keyed["service_key"], keyed["implementation"]) == ("INotifier", "sms", "SmsNotifier")
    legacy = web.call("surfaces_list", {"kind": "di", "project": "Web.NoPackages"})
    assert [(r["service"], r.get("lifetime"), r.get("via"), r["confidence"]) for r in legacy["data"]["registrations"]] \
        == [("ReportingContext", "Scoped", "AddDbContext", "medium"),
            # AddHttpClient's IHttpClientFactory is a singleton (a typed client is transient)
            ("IHttpClientFactory", "Singleton", "AddHttpClient", "high"),
            ("IHttpClientFactory", "Singleton", "AddHttpClient", "high"),
            ("LegacyDbContext", "Scoped", "AddDbContext", "medium"),
            ("InvoiceRepository", "Scoped", None, "high"),
            ("IMediator", "Transient", "AddMediatR", "medium"),
            # AddSingleton(sp => new ServiceBusClient(...)), its package missing: T is what the factory makes
            ("ServiceBusClient", "Singleton", None, "high")]
    # Ombi's AddDbContext<OmbiContext, OmbiSqliteContext>(): the second type argument is what is made.
    assert legacy["data"]["registrations"][0]["implementation"] == "SqliteReportingContext"
    db = web.call("surfaces_list", {"kind": "di", "filter": "DbContext", "file": "Web.Api/"})
    assert [(r["service"], r["implementation_id"], r["file"], r["line"]) for r in db["data"]["registrations"]] == [
        ("ShopDbContext", "T:Web.Api.Data.ShopDbContext", "src/Web.Api/Infrastructure/DescriptorSetup.cs", 18),
        ("ShopDbContext", "T:Web.Api.Data.ShopDbContext", "src/Web.Api/Program.cs", 22)]
    scoped = web.call("surfaces_list", {"kind": "di", "level": "scoped", "project": "Web.Api"})
    assert scoped["answer"] == "8 DI registrations in project 'Web.Api' (8 Scoped)."


def test_middleware_pipeline_in_order(web: McpServerProcess) -> None:
    env = web.call("surfaces_list", {"kind": "middleware", "file": "Web.Api/Program.cs"})
    assert env["answer"] == "9 middleware in file 'Web.Api/Program.cs' (9 Web.Api)."
    assert [(m["order"], m["middleware"], m["line"]) for m in env["data"]["middleware"]] == [
        (1, "UseExceptionHandler", 38), (2, "UseMiddleware<RequestTimingMiddleware>", 39), (3, "UseRouting", 40),
        (4, "UseAuthentication", 41), (5, "UseAuthorization", 42), (6, "Use", 43), (7, "UseRequestTiming", 48),
        # 8: what UseRequestTiming adds, in its own file (below)
        (9, "MapWhen", 49), (10, "Map /health", 50)]
    assert all(m["configured_in"] == MAIN for m in env["data"]["middleware"])
    # SimplCommerce's `app.UseCustomizedIdentity()`, an extension of the solution, is a step, and what it adds runs
    # there: its UseIdentityServer was a pipeline of its own, numbered 1 though it runs 17th.
    added = web.call("surfaces_list", {"kind": "middleware", "file": "Infrastructure/RequestTimingMiddleware.cs"})
    assert [(m["order"], m["middleware"], m["line"], m["configured_in"], m["called_from"])
            for m in added["data"]["middleware"]] == [
        (8, "UseMiddleware<RequestTimingMiddleware>", 18, "M:Web.Api.Infrastructure.RequestTimingExtensions."
         "UseRequestTiming(Microsoft.AspNetCore.Builder.IApplicationBuilder)", MAIN)]
    legacy = web.call("surfaces_list", {"kind": "middleware", "project": "web.nopackages"})
    assert [(m["middleware"], m["confidence"]) for m in legacy["data"]["middleware"]] == [
        ("UseSwagger", "medium"), ("UseHttpsRedirection", "high")]


def test_log_templates_and_exceptions_lists(web: McpServerProcess) -> None:
    logs = web.call("surfaces_list", {"kind": "logs", "file": "OrderService.cs"})
    assert [(entry["level"], entry["template"], entry["line"]) for entry in logs["data"]["logs"]] == [
        ("Debug", "Loading order {OrderId}", 21), ("Warning", "Order {OrderId} not found", 25),
        ("Information", "Placed order {OrderId}", 38), ("Error", "Saving order for {Customer} timed out", 44),
        ("Critical", "Unexpected failure", 49)]
    generated = web.call("surfaces_list", {"kind": "logs", "level": "warning"})
    assert [(entry["template"], entry["source"]) for entry in generated["data"]["logs"]] == [
        ("Basket {BasketId} abandoned", "adapter"), ("Payment {PaymentId} declined", "LoggerMessage"),
        ("Server {server} was considered dead", "adapter"), ("Heartbeat failed", "adapter"),
        ("Heartbeat of {Server} late", "NLog"), ("Order {OrderId} not found", "ILogger"),
        ("Invoice {InvoiceId} voided", "logger")]
    # Through the solution's own logging adapter (IAppLogger<T>): the `message` parameter is the template.
    adapter = web.call("surfaces_list", {"kind": "logs", "file": "AppLogger.cs"})["data"]["logs"]
    assert [(e["template"], e["level"], e["source"], e["via"], e["line"], e["confidence"]) for e in adapter] == [
        ("Reminding basket {BasketId}", "Information", "adapter",
         "M:Web.Api.Infrastructure.IAppLogger`1.LogInformation(System.String,System.Object[])", 22, "medium"),
        ("Basket {BasketId} abandoned", "Warning", "adapter",
         "M:Web.Api.Infrastructure.IAppLogger`1.LogWarning(System.String,System.Object[])", 23, "medium")]
    assert web.call("surfaces_list", {"kind": "logs", "project": "Web.NoPackages"})["answer"] == \
        "3 log templates in project 'Web.NoPackages' (2 Information, 1 Warning)."
    thrown = web.call("surfaces_list", {"kind": "exceptions", "project": "Web.Api"})
    assert [(t["exception"], t["form"], t["line"]) for t in thrown["data"]["exceptions"]] == [
        ("T:System.ArgumentException", "throw_expression", 14),
        ("T:System.InvalidOperationException", "throw_expression", 22),
        ("T:System.ArgumentOutOfRangeException", "throw_expression", 36),  # RetryAttribute.Attempts' setter
        ("T:System.NotSupportedException", "throw_expression", 40),
        ("T:System.ArgumentNullException", "throw_expression", 14),
        ("T:System.Collections.Generic.KeyNotFoundException", "throw", 26),
        ("T:System.InvalidOperationException", "throw", 33), ("T:System.TimeoutException", "rethrow", 45),
        ("rethrow", "rethrow", 50)]
    db = web.call("surfaces_list", {"kind": "exceptions", "filter": "DbUpdate"})
    assert [(t["exception"], t["thrown_in"], t["confidence"]) for t in db["data"]["exceptions"]] == [
        ("DbUpdateException", "M:Web.NoPackages.LegacyDbContext.SaveChecked", "medium"),
        ("DbUpdateConcurrencyException", "M:Web.NoPackages.LegacyDbContext.SaveChecked", "medium")]


def test_exceptions_through_calls_and_throw_helpers(web: McpServerProcess) -> None:
    """CouponService.Apply throws InvalidOperationException itself and ArgumentException through
    Guard.AgainstEmpty -> Guard.Fail ([DoesNotReturn]), with the call path."""
    apply = "M:Web.Api.Infrastructure.CouponService.Apply(System.String,System.Decimal)"
    env = web.call("surfaces_list", {"kind": "exceptions", "symbol_id": apply})
    got = [(e["exception"], e["thrown_in"], e["path"], e["line"]) for e in env["data"]["exceptions"]]
    against = "M:Web.Api.Infrastructure.Guard.AgainstEmpty(System.String,System.String)"
    fail = "M:Web.Api.Infrastructure.Guard.Fail(System.String)"
    assert got == [
        ("T:System.InvalidOperationException", apply, [apply], 22),
        ("T:System.ArgumentException", fail, [apply, against, fail], 14),
    ]
    shallow = web.call("surfaces_list", {"kind": "exceptions", "symbol_id": apply, "depth": 1})
    assert [e["exception"] for e in shallow["data"]["exceptions"]] == ["T:System.InvalidOperationException"]


def test_an_attribute_argument_is_no_call_of_the_member_it_decorates(web: McpServerProcess) -> None:
    """Hangfire's `[AutomaticRetry(Attempts = 0)]` was a Write from the decorated method, so the method "threw" the
    setter's ArgumentOutOfRangeException. Guard.cs RetriedJobs.Work: the setter runs when the attribute is read by
    reflection; the reference is an AttributeArgument, no edge for exceptions, traces or callers."""
    work = "M:Web.Api.Infrastructure.RetriedJobs.Work"
    attempts = "P:Web.Api.Infrastructure.RetryAttribute.Attempts"
    assert web.call("surfaces_list", {"kind": "exceptions", "symbol_id": work})["data"]["exceptions"] == []
    refs = web.call("refs_find", {"symbol_id": attempts})
    assert [(r["file"], r["line"], r["kind"]) for r in refs["data"]["references"]] == [
        ("src/Web.Api/Infrastructure/Guard.cs", 42, "AttributeArgument")]
    assert web.call("graph_callers", {"symbol_id": attempts})["data"]["nodes"] == []


def test_db_tables_with_overrides_and_medium_confidence(web: McpServerProcess) -> None:
    env = web.call("surfaces_list_db_tables", {})
    tables = {t["table"].lower(): t for t in env["data"]["tables"]}
    assert set(tables) == {"audit_log", "customers", "invoices", "orders", "payments"}
    assert (tables["audit_log"]["schema"], tables["audit_log"]["entities"]) == ("ops", ["T:Web.Api.Data.AuditEntry"])
    assert tables["customers"]["schema"] == "crm"
    # The DbSet of an entity ToTable maps is that table's (its readers are the table's).
    assert sorted(s["source"] for s in tables["orders"]["sources"]) == ["DbSet", "Sql", "Sql", "Sql", "Sql", "ToTable"]
    assert tables["invoices"]["confidence"] == "medium" and tables["invoices"]["schema"] == "billing"
    assert "M:Web.Api.Services.SqlOrderStore.FindAsync(System.Int32,System.Threading.CancellationToken)" in \
        tables["orders"]["symbols"]


def test_db_tables_match_dbset_and_entity_names_and_group_migrations(web: McpServerProcess) -> None:
    """audit_log is mapped by ToTable from DbSet AuditEntries (entity AuditEntry); the snapshot and a
    migration's designer repeat the mapping (grouped); SQLite's pragma_table_xinfo and sqlite_sequence
    (SqliteMaintenance.cs) are not tables, nor its `FROM "{table}"`."""
    tables = web.call("surfaces_list_db_tables", {})["data"]["tables"]
    assert [t["table"] for t in tables] == ["audit_log", "customers", "invoices", "orders", "payments"]
    audit = tables[0]
    assert (audit["dbsets"], audit["file"], audit["line"]) == (
        ["AuditEntries"], "src/Web.Api/Data/ShopDbContext.cs", 13)
    assert audit["migrations"] == 2  # the snapshot and the designer, in the one folder said once
    assert web.call("surfaces_list_db_tables", {})["data"]["migration_folders"] == [
        {"folder": "src/Web.Api/Data/Migrations", "files": 2}]
    # No migration among them; the row points at the mapping, not at the DbSet (line 9).
    assert [(s["source"], s["file"].rsplit("/", 1)[-1]) for s in audit["sources"]] == [
        ("DbSet", "ShopDbContext.cs"), ("ToTable", "ShopDbContext.cs"), ("Sql", "SqlOrderStore.cs")]
    for fragment in ("AuditEntries", "AuditEntry", "audit_"):
        env = web.call("surfaces_list_db_tables", {"table_filter": fragment})
        assert [t["table"] for t in env["data"]["tables"]] == ["audit_log"], fragment
    empty = web.call("surfaces_list_db_tables", {"table_filter": "nothing"})
    assert empty["answer"] == "0 database tables match 'nothing'."
    assert empty["hint"] == ("No table, DbSet or entity name contains 'nothing' (5 database tables in the index). "
                             "Call surfaces_list_db_tables without table_filter to see them.")
    card = web.call("symbols_get_card", {"symbol_id": "P:Web.Api.Data.ShopDbContext.AuditEntries"})
    assert [(f["kind"], f["key"], f["dbset"]) for f in card["data"]["facts"]] == [("DbTable", "audit_log",
                                                                                   "AuditEntries")]


REPORTS = "M:Web.Api.Services.OrderReports."


def test_stored_procedures_are_listed_apart_from_tables(web: McpServerProcess) -> None:
    """A command text that is only a name runs a stored procedure (Dapper, ADO.NET), as does `EXEC name` (EF
    Core); a schema known only at run time is null, a name known only at run time is no procedure, nor is a
    one-word statement (`Execute("COMMIT")`)."""
    env = web.call("surfaces_list_db_tables", {})
    assert env["answer"] == "5 database tables and 4 stored procedures."
    procedures = env["data"]["procedures"]
    assert [(p["procedure"], p["schema"], p["symbols"], p["line"], p["confidence"]) for p in procedures] == [
        ("Invoice_Recalculate", "billing", [f"{REPORTS}RecalculateAsync"], 22, "high"),
        ("Orders_Archive", None, [f"{REPORTS}ArchiveAsync(System.Int32)"], 19, "high"),
        ("Orders_Reset", "dbo", [f"{REPORTS}ResetAsync"], 27, "high"),
        ("Report_TopCustomers", "dbo", [f"{REPORTS}TopCustomersAsync"], 15, "high")]
    assert "Orders_Reset" not in {t["table"] for t in env["data"]["tables"]}
    only = web.call("surfaces_list_db_tables", {"table_filter": "orders_"})
    assert only["answer"] == "0 database tables and 2 stored procedures match 'orders_'."
    card = web.call("symbols_get_card", {"symbol_id": f"{REPORTS}ResetAsync"})
    assert [(f["kind"], f["key"], f["object"]) for f in card["data"]["facts"]] == [
        ("DbTable", "Orders_Reset", "procedure")]


def test_endpoints_and_tables_in_one_call(web: McpServerProcess) -> None:
    """Which endpoints touch table orders (through DI-dispatched interface calls), and which tables
    GET /api/Orders/{id:int} touches."""
    env = web.call("surfaces_list_db_tables", {"table_filter": "orders", "with_endpoints": True})
    assert [e["endpoint"] for e in env["data"]["tables"][0]["endpoints"]] == [
        "POST /api/Orders", "POST /api/orders", "GET /api/Orders/{id:int}", "GET /api/orders/{id:int}",
        "DELETE /purge/{days:int}"]
    trace = web.call("graph_trace_feature", {"entry_point": "GET /api/Orders/{id:int}", "depth": 4})
    assert trace["data"]["tables"] == [
        {"table": "orders",
         "via": "M:Web.Api.Services.SqlOrderStore.FindAsync(System.Int32,System.Threading.CancellationToken)"}]


def test_card_facts_belong_to_the_asked_project(web: McpServerProcess) -> None:
    """Both projects have top-level statements: the same Program.<Main>$ id, facts kept apart."""
    legacy = web.call("symbols_get_card", {"symbol_id": MAIN, "project": "Web.NoPackages"})["data"]
    assert {f["file"] for f in legacy["facts"]} == {"src/Web.NoPackages/Program.cs"}
    # (/invoices/{id:int}'s lambda forwards to InvoiceRepository.Find: the route is that method's fact)
    assert [f["key"] for f in legacy["facts"] if f["kind"] == "Route"] == ["/legacy/{**rest}"]
    api = web.call("symbols_get_card", {"symbol_id": MAIN, "project": "Web.Api"})["data"]
    assert {f["file"] for f in api["facts"]} == {"src/Web.Api/Program.cs"}


def test_card_facts_and_thrown_exceptions(web: McpServerProcess) -> None:
    card = web.call("symbols_get_card", {"symbol_id": "M:Web.Api.Services.OrderService.PlaceOrderAsync("
                                                      "Web.Api.Data.Order,System.Threading.CancellationToken)"})
    data = card["data"]
    assert data["thrown_exceptions"] == ["T:System.InvalidOperationException", "T:System.TimeoutException",
                                         "rethrow"]
    assert [(f["kind"], f["key"], f["level"]) for f in data["facts"]] == [
        ("Log", "Placed order {OrderId}", "Information"), ("Log", "Saving order for {Customer} timed out", "Error"),
        ("Log", "Unexpected failure", "Critical")]


def test_trace_from_route_through_di(web: McpServerProcess) -> None:
    env = web.call("graph_trace_feature", {"entry_point": "GET /api/Orders/{id:int}", "depth": 4})
    assert env["data"]["root"]["symbol_id"] == GET
    assert [f["kind"] for f in env["data"]["root"]["facts"]] == ["Route"]
    nodes = [(n["depth"], n["symbol_id"], n.get("di_registered", False)) for n in env["data"]["nodes"]]
    assert nodes == [
        (1, "M:Web.Api.Services.IOrderService.GetOrderAsync(System.Int32,System.Threading.CancellationToken)", False),
        (1, "M:Web.Api.Services.OrderService.GetOrderAsync(System.Int32,System.Threading.CancellationToken)", True),
        (2, "M:Web.Api.Services.IOrderStore.FindAsync(System.Int32,System.Threading.CancellationToken)", False),
        (2, "M:Web.Api.Services.SqlOrderStore.FindAsync(System.Int32,System.Threading.CancellationToken)", True),
        (3, "P:Web.Api.Data.ShopDbContext.Orders", False),
    ]
    service = env["data"]["nodes"][1]
    assert [(f["kind"], f["key"]) for f in service["facts"]] == [
        ("Log", "Loading order {OrderId}"), ("Log", "Order {OrderId} not found"),
        ("Exception", "T:System.Collections.Generic.KeyNotFoundException")]
    store = env["data"]["nodes"][3]
    assert [(f["kind"], f["key"]) for f in store["facts"]] == [("DbTable", "orders")]


def test_trace_route_errors(web: McpServerProcess) -> None:
    ambiguous = web.call("graph_trace_feature", {"entry_point": "GET /api/Orders/5"})
    assert ambiguous["error"]["code"] == "AMBIGUOUS"
    assert [c["entry_point"] for c in ambiguous["error"]["candidates"]] == [
        "GET /api/Orders/{id:int}", "GET /api/orders/{id:int}"]
    concrete = web.call("graph_trace_feature", {"entry_point": "GET /invoices/7", "depth": 1})
    assert concrete["data"]["root"]["symbol_id"] == "M:Web.NoPackages.InvoiceRepository.Find(System.Int32)"
    missing = web.call("graph_trace_feature", {"entry_point": "GET /nothing/here"})
    assert missing["error"]["code"] == "NOT_FOUND"
    bad = web.call("graph_trace_feature", {"entry_point": "orders controller!"})  # a plain name would resolve
    assert bad["error"]["code"] == "INVALID_ARGUMENT"


def test_diagnostics_of_missing_packages_are_counted_apart(web: McpServerProcess) -> None:
    """Web.NoPackages lacks its packages: its type-not-found errors are the machine's, counted apart; the member
    calls on those types are listed (a partial project's errors, after any full project's)."""
    env = web.call("diagnostics_list", {})
    assert env["answer"] == (
        "15 errors, 0 warnings. All of the errors are in partial projects: a type that did not resolve"
        " there makes its uses errors too. Not listed: 35 errors of references that did not resolve, in 1 project"
        " (syntax_only, or a partial project's missing types); project=\"Web.NoPackages\" lists its 35.")
    # CS0411: InvoiceSlices.cs's SendAsync(new VoidInvoice(..)) cannot infer T from a base that did not resolve.
    assert env["data"]["by_code"] == [{"code": "CS1061", "count": 8}, {"code": "CS0103", "count": 6},
                                      {"code": "CS0411", "count": 1}]
    assert [(d["file"], d["line"]) for d in env["data"]["diagnostics"]][:4] == [
        ("src/Web.NoPackages/ContainerSetup.cs", 28), ("src/Web.NoPackages/InvoiceOperations.cs", 8),
        ("src/Web.NoPackages/InvoiceOperations.cs", 10), ("src/Web.NoPackages/InvoiceOperations.cs", 13)]
    scoped = web.call("diagnostics_list", {"project": "Web.NoPackages"})
    assert scoped["answer"] == "50 errors, 0 warnings matching the filters. All of the errors are in partial" \
        " projects: a type that did not resolve there makes its uses errors too."


def test_serilog_and_logger_message_define_templates(web: McpServerProcess) -> None:
    """Serilog's `log.Information(...)`/`Log.Write(LogEventLevel.X, ...)` and `LoggerMessage.Define` are log templates
    (sample-dotnet-core-cqrs-api logs through Serilog only); unbound, a receiver read as a logger is enough."""
    logs = web.call("surfaces_list", {"kind": "logs", "file": "Shipping.cs"})["data"]["logs"]
    assert [(e["template"], e["level"], e["source"], e["line"], e["confidence"]) for e in logs] == [
        ("Shipment {ShipmentId} delayed", "Error", "LoggerMessage.Define", 11, "high"),
        ("Shipping {ShipmentId}", "Information", "Serilog", 15, "high"),
        ("Shipment {ShipmentId} queued", "Debug", "Serilog", 16, "high"),
        ("Shipment {ShipmentId} failed", "Error", "Serilog", 23, "high")]
    unbound = web.call("surfaces_list", {"kind": "logs", "file": "InvoiceOperations.cs"})["data"]["logs"]
    assert [(e["template"], e["source"], e["confidence"]) for e in unbound] == [
        ("Invoice {InvoiceId} archived", "Serilog", "medium"), ("Invoice {InvoiceId} voided", "logger", "medium")]


def test_nlog_and_liblog_templates(web: McpServerProcess) -> None:
    """Heartbeat.cs (Hangfire's LibLog: 92 of its 112 log calls were missed, only names ILogger or Serilog use were
    read). A solution's `LogExtensions.Info(this ILog logger, string message)` and its `InfoFormat`, `Warn`,
    `WarnException` are adapters on a logger type; NLog's Logger is a library (high), its `Log(LogLevel.Debug, ..)`
    too; levels in ILogger's words (Info: Information, Warn: Warning). `Info` and `Trace` of a type that is no logger
    (Catalog) are no log calls, nor a delegate argument; unbound (Web.NoPackages), `LogManager.GetCurrentClassLogger()
    .Warn(..)` is read by its receiver's name (`logger`, medium) and `Reports.Trace(..)` is not."""
    logs = web.call("surfaces_list", {"kind": "logs", "file": "Heartbeat.cs"})
    assert logs["answer"] == "7 log templates in file 'Heartbeat.cs' (3 Information, 3 Warning, 1 Debug)."
    via = "M:Web.Api.Services.LogExtensions."
    assert [(e["template"], e["level"], e["source"], e.get("via"), e["line"], e["confidence"])
            for e in logs["data"]["logs"]] == [
        ("Server {server} is alive", "Information", "adapter", f"{via}Info(Web.Api.Services.ILog,System.String)", 32,
         "medium"),
        ("Server {0} heartbeat", "Information", "adapter",
         f"{via}InfoFormat(Web.Api.Services.ILog,System.String,System.Object[])", 33, "medium"),
        ("Server {server} was considered dead", "Warning", "adapter", f"{via}Warn(Web.Api.Services.ILog,System.String)",
         34, "medium"),
        ("Heartbeat failed", "Warning", "adapter",
         f"{via}WarnException(Web.Api.Services.ILog,System.String,System.Exception)", 35, "medium"),
        ("Heartbeat of {Server}", "Information", "NLog", None, 37, "high"),
        ("Heartbeat of {Server} late", "Warning", "NLog", None, 38, "high"),
        ("Beat {Server} logged", "Debug", "NLog", None, 39, "high")]
    assert web.call("surfaces_list", {"kind": "logs", "filter": "Catalog"})["data"]["logs"] == []


def test_retry_policies(web: McpServerProcess) -> None:
    """Polly v7 policies, a v8 pipeline, Polly.Extensions.Http's transient-error policy and the resilience handlers,
    in source order per file."""
    env = web.call("surfaces_list", {"kind": "retries", "limit": 20})
    assert env["answer"] == ("9 retry policies (3 WaitAndRetry, 2 ResiliencePipeline, 1 CircuitBreaker,"
                             " 1 ResilienceHandler, 1 Retry, 1 StandardResilienceHandler).")
    assert [(p["policy"], p.get("retries"), p.get("handles"), p["file"].split("/")[-1], p["line"], p["confidence"])
            for p in env["data"]["policies"]] == [
        ("WaitAndRetry", 3, ["HttpRequestException", "TimeoutException"], "ResiliencePolicies.cs", 12, "high"),
        ("Retry", 2, ["IOException"], "ResiliencePolicies.cs", 14, "high"),
        ("CircuitBreaker", None, ["HttpRequestException"], "ResiliencePolicies.cs", 16, "high"),
        ("ResiliencePipeline", 4, ["TimeoutException"], "ResiliencePolicies.cs", 18, "high"),
        ("WaitAndRetry", 6, ["TransientHttpError"], "InvoiceOperations.cs", 8, "medium"),
        ("WaitAndRetry", 3, ["SqlException", "TimeoutException"], "InvoiceRepository.cs", 11, "medium"),
        ("ResiliencePipeline", 2, None, "InvoiceRepository.cs", 13, "medium"),
        ("StandardResilienceHandler", None, None, "Program.cs", 7, "medium"),
        ("ResilienceHandler", None, None, "Program.cs", 8, "medium")]
    assert env["data"]["policies"][-1]["name"] == "ledger-pipeline"
    transient = web.call("surfaces_list", {"kind": "retries", "filter": "transient"})["data"]["policies"]
    assert [p["configured_in"] for p in transient] == ["M:Web.NoPackages.InvoiceOperations.RetryPolicy"]


def test_members_the_framework_calls_by_convention_are_not_unused(web: McpServerProcess) -> None:
    """RequestTimingMiddleware.InvokeAsync(HttpContext) runs through UseMiddleware<T>() with no reference to it
    (jellyfin's eight middleware Invoke methods were said unused), ChatHub.Send is called by SignalR clients and the
    EF migrations are found by reflection (testdata/Conventions has more); the rest of Web.Api's list is truly
    unused, including a controller's [NonAction] and private methods (a framework-entry class used to hide them)."""
    env = web.call("symbols_unused", {"project": "Web.Api"})
    assert env["ok"], env
    unused = [u["symbol_id"] for u in env["data"]["unused"]]
    api, services, infra = "Web.Api.", "Web.Api.Services.", "Web.Api.Infrastructure."
    assert unused == [
        f"M:{api}Components.Pages.Counter.Increment", f"M:{api}Controllers.AccountController.Describe",
        f"M:{api}Controllers.AccountController.Hidden",
        f"T:{api}Data.SqliteMaintenance",
        f"M:{api}Endpoints.BrandEndpoints.AddRoute(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder)",
        f"T:{infra}BasketReminder",
        f"M:{infra}ConfigurationSetup.AddWebApi(Microsoft.Extensions.DependencyInjection.IServiceCollection,"
        "Microsoft.Extensions.Configuration.IConfiguration)",
        f"M:{infra}DescriptorSetup.AddDescribed(Microsoft.Extensions.DependencyInjection.IServiceCollection)",
        f"M:{infra}HelperSetup.AddThroughHelper(Microsoft.Extensions.DependencyInjection.IServiceCollection)",
        f"T:{infra}CouponService", f"T:{infra}RetriedJobs", f"T:{infra}JwtSetup", f"T:{infra}LegacyConfiguration",
        f"M:{infra}Log.PaymentDeclined(Microsoft.Extensions.Logging.ILogger,System.String)",
        f"M:{api}Pages.Basket.CheckoutModel.Helper", f"M:{services}IAuditSink.Write(System.String)",
        f"M:{services}INotifier.NotifyAsync(System.String)",
        f"M:{services}Heartbeat.Beat(System.String,System.Exception)", f"M:{services}OrderReports.TopCustomersAsync",
        f"M:{services}OrderReports.ArchiveAsync(System.Int32)", f"M:{services}OrderReports.RecalculateAsync",
        f"M:{services}OrderReports.ResetAsync", f"M:{services}OrderReports.CommitAsync",
        f"M:{services}OrderReports.DeleteFromAsync(System.String)",
        f"M:{services}Shipping.Ship(System.Int32,Microsoft.Extensions.Logging.ILogger)"]
    # constructed: LoggerAdapter<T>'s constructor is one more (its class implements IAppLogger<T>: left out), and
    # Heartbeat's.
    # Data/Schema's FluentMigrator migration M001_AuditIndex is framework_entry (found by the runner's scan, as
    # Sonarr's 155 are); its Up and Down overrides are dispatch. RatingEndpoints.MapRatings is framework_entry;
    # TenantFeatureFilter and its EvaluateAsync dispatch, its constructor constructed. OrdersController.Orphan, an
    # action at its controller's route, is framework_entry. The page models IndexModel, CheckoutModel and
    # EditCatalogItemModel are generated_code: the Razor generator's page classes name them (`@model`).
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        "constructed": 12, "dispatch": 20, "entry_point": 1, "framework_entry": 39, "generated_code": 3,
        "serialization": 25}


def test_a_partial_type_speaks_from_the_part_that_declares_its_bases(web: McpServerProcess) -> None:
    """Newtonsoft.Json's JsonTextReader was `public partial class JsonTextReader` from JsonTextReader.Async.cs (first
    by name); its bases are declared in JsonTextReader.cs. Here Initial's second part declares `: Migration`."""
    card = web.call("symbols_get_card", {"symbol_id": "T:Web.Api.Data.Migrations.Initial"})["data"]
    assert (card["location"]["line"], card["signature"]) == (18, "internal sealed partial class Initial : Migration")
    assert [p["line"] for p in card["other_parts"]] == [9]


def test_a_forwarder_whose_request_type_did_not_restore_is_still_one(web: McpServerProcess) -> None:
    """Contoso's test fixture `SendAsync<T>(IRequest<T> request) => mediator.Send(request)` with MediatR.Contracts
    missing: the send had no fact (its request an error type), so tests_find said 21 of 27 tested handlers were
    untested. Web.NoPackages/InvoiceSlices.cs: keyed `?IRequest`, matched against VoidInvoice's unresolved base, and
    the unbound `slice.SendAsync(new VoidInvoice(id))` makes VoidAsync the sender."""
    handle = "M:Web.NoPackages.VoidInvoiceHandler.Handle(Web.NoPackages.VoidInvoice,System.Threading.CancellationToken)"
    impact = web.call("impact_analyze", {"symbol_id": handle})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in impact["data"]["callers"]] == [
        ("M:Web.NoPackages.InvoiceVoiding.VoidAsync(Web.NoPackages.InvoiceSlice,System.Int32)", 1, "mediator")]


def test_a_registration_made_from_a_service_descriptor_is_one(web: McpServerProcess) -> None:
    """fullstackhero's `TryAddEnumerable(ServiceDescriptor.Scoped<IAuthorizationHandler, H>())` and
    `services.Add(new ServiceDescriptor(typeof(I), typeof(T), lifetime))` were not listed.
    Web.Api/Infrastructure/DescriptorSetup.cs: each is the registration AddScoped<I, T>() would be; and a generic
    extension of the solution registers what its body does, with its caller's type arguments."""
    env = web.call("surfaces_list", {"kind": "di", "file": "DescriptorSetup"})
    assert [(r["service"], r.get("lifetime"), r.get("implementation"), r["form"], r.get("try"), r["line"],
             r["confidence"]) for r in env["data"]["registrations"]] == [
        ("INotifier", "Scoped", "EmailNotifier", "generic", True, 14, "high"),
        ("IClock", "Transient", "SystemClock", "typeof", False, 15, "high"),
        ("IOrderStore", "Singleton", "SqlOrderStore", "generic", False, 16, "high"),
        ("IAuditSink", "Scoped", "FileAuditSink", "typeof", True, 17, "high"),
        # The solution's own generic extension (fullstackhero's AddHeroDbContext<CatalogDbContext>()): what its body
        # registers, its type argument put in for TContext, at the call; the body's own row names TContext.
        ("ShopDbContext", "Scoped", "ShopDbContext", "extension", None, 18, "high"),
        ("TContext", "Scoped", "TContext", "extension", None, 23, "high"),
        # Hangfire's helper, no Add* extension: each call registers its type argument, written or inferred (the
        # factory's product is not recorded), and the body's own row names T.
        ("IClock", "Singleton", None, "extension", True, 32, "high"),
        ("PriceCalculator", "Singleton", None, "extension", True, 33, "high"),
        ("T", "Singleton", None, "factory", True, 38, "high")]
    made = env["data"]["registrations"][4]
    assert (made["via"], made["through"], made["service_id"]) == ("AddShopContext", "AddDbContext",
                                                                    "T:Web.Api.Data.ShopDbContext")
    helper = env["data"]["registrations"][7]
    assert (helper["via"], helper["service_id"], helper["registered_in"]) == (
        "TryAddSingletonChecked", "T:Web.Api.Services.PriceCalculator",
        "M:Web.Api.Infrastructure.HelperSetup.AddThroughHelper(Microsoft.Extensions.DependencyInjection.IServiceCollection)")
