"""FastEndpoints routes over MCP stdio (testdata/FastEp, ardalis/CleanArchitecture's web layer).

An endpoint class declares its routes in its Configure() override and handles them in HandleAsync or
ExecuteAsync; Program.cs maps nothing. FastEp.Api references the package (high confidence); FastEp.Unrestored
is a project MSBuild cannot evaluate (an SDK no feed serves), so it has no references at all, not even
System.String: its endpoint is recognised by its base type's name and its const route read from the const's
declaration (medium confidence).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import roslynmap, serving
from tests.mcp_client import McpServerProcess
from tests.repos import TESTDATA, make_repo

API = "M:FastEp.Api.Orders."
TOKEN = "System.Threading.CancellationToken"
UPDATE = f"{API}UpdateOrder.HandleAsync(FastEp.Api.Orders.UpdateOrderRequest,{TOKEN})"
UPDATE_FILE = "src/FastEp.Api/Orders/UpdateOrder.cs"


@pytest.fixture(scope="module")
def fastep(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    # roslynmap's own restore: FastEp.Unrestored cannot be restored, FastEp.Api can.
    repo = make_repo(TESTDATA / "FastEp", tmp_path_factory.mktemp("repos") / "FastEp", restore=False)
    done = roslynmap("index", str(repo), "--json", "--restore", env={"ROSLYNMAP_HOME": str(home)})
    assert done.returncode == 2, done.stdout + done.stderr  # FastEp.Unrestored is syntax_only
    yield from serving(repo, home)


def test_routes_come_from_each_endpoints_configure(fastep: McpServerProcess) -> None:
    env = fastep.call("surfaces_list_endpoints", {"limit": 50})
    # 14 FastEndpoints routes and the 4 Carter modules map (test_carter_modules_map_under_their_base_path)
    assert env["answer"] == "18 endpoints (8 GET, 3 DELETE, 3 POST, 2 PATCH, 2 PUT)."
    assert [(e["method"], e["route"], e["handler"], e["file"], e["line"], e["source"], e["confidence"])
            for e in env["data"]["endpoints"] if e["source"] == "fastendpoints"] == [
        # [HttpDelete("customers/{Id:int}"), Group<Administration>] on the class: attribute configuration
        ("DELETE", "/api/admin/customers/{Id:int}",
         f"M:FastEp.Api.Admin.DeleteCustomer.HandleAsync(FastEp.Api.Orders.GetOrderRequest,{TOKEN})",
         "src/FastEp.Api/Admin/Customers.cs", 7, "fastendpoints", "high"),
        # Group<Administration>(): its constructor Configure()s "admin", after the app's RoutePrefix "api"
        ("POST", "/api/admin/purge", "M:FastEp.Api.Admin.Purge.HandleAsync(System.Threading.CancellationToken)",
         "src/FastEp.Api/Admin/Purge.cs", 9, "fastendpoints", "high"),
        # Group<Reports>(), a SubGroup<Administration>: its parent's prefix first; Version(2) with the app's
        # Versioning.Prefix "ver": after the route
        ("GET", "/api/admin/reports/daily/ver2", f"M:FastEp.Api.Admin.DailyReport.HandleAsync({TOKEN})",
         "src/FastEp.Api/Admin/Purge.cs", 20, "fastendpoints", "high"),
        # PingV1 : Ping calls base.Configure() and adds Version(1): Ping's route, versioned, anchored at PingV1's
        # Configure, handled by the HandleAsync it inherits
        ("GET", "/api/health/ping", f"{API}Ping.HandleAsync({TOKEN})", "src/FastEp.Api/Orders/ListOrders.cs", 23,
         "fastendpoints", "high"),
        ("GET", "/api/health/ping/ver1", f"{API}Ping.HandleAsync({TOKEN})", "src/FastEp.Api/Orders/ListOrders.cs", 33,
         "fastendpoints", "high"),
        # EndpointWithoutRequest: HandleAsync takes the token alone
        ("GET", "/api/orders", f"{API}ListOrders.HandleAsync({TOKEN})", "src/FastEp.Api/Orders/ListOrders.cs", 10,
         "fastendpoints", "high"),
        # the route a const of the request class; the handler ExecuteAsync
        ("GET", "/api/orders/{Id:int}", f"{API}GetOrder.ExecuteAsync(FastEp.Api.Orders.GetOrderRequest,{TOKEN})",
         "src/FastEp.Api/Orders/GetOrder.cs", 19, "fastendpoints", "high"),
        # Verbs(Http.PUT, Http.PATCH) with Routes(a, b): every verb on every route
        ("PUT", "/api/orders/{Id:int}", UPDATE, UPDATE_FILE, 18, "fastendpoints", "high"),
        # Delete("orders/{Id:int}", r => r.Id): one route, its leading slash added; the lambda is no route
        ("DELETE", "/api/orders/{Id:int}",
         f"{API}DeleteOrder.HandleAsync(FastEp.Api.Orders.GetOrderRequest,{TOKEN})",
         UPDATE_FILE, 28, "fastendpoints", "high"),
        ("PATCH", "/api/orders/{Id:int}", UPDATE, UPDATE_FILE, 18, "fastendpoints", "high"),
        ("PUT", "/api/orders/{Id:int}/status", UPDATE, UPDATE_FILE, 18, "fastendpoints", "high"),
        ("PATCH", "/api/orders/{Id:int}/status", UPDATE, UPDATE_FILE, 18, "fastendpoints", "high"),
        # RoutePrefixOverride("mobile/api") instead of the app's "api"
        ("GET", "/mobile/api/status", f"M:FastEp.Api.Admin.MobileStatus.HandleAsync({TOKEN})",
         "src/FastEp.Api/Admin/Purge.cs", 33, "fastendpoints", "high"),
        # no references at all: the base type named like FastEndpoints', the const read from its declaration
        # (and the parameter's type named as written: it binds to nothing). Another app: FastEp.Api's
        # RoutePrefix is not its own.
        ("POST", "/ping/{Id:int}", "M:FastEp.Unrestored.Ping.HandleAsync(CancellationToken)",
         "src/FastEp.Unrestored/Ping.cs", 9, "fastendpoints", "medium")]
    # Settings overrides a Configure() of its own and calls its own Get("/not-a-route"): no route.
    assert not fastep.call("surfaces_list_endpoints", {"path_filter": "not-a-route"})["data"]["endpoints"]


def test_a_route_leads_to_its_handler(fastep: McpServerProcess) -> None:
    env = fastep.call("surfaces_list_endpoints", {"path_filter": "/api/orders/{Id:int}/status", "http_method": "PATCH"})
    assert [e["handler"] for e in env["data"]["endpoints"]] == [
        UPDATE]


def test_carter_modules_map_under_their_base_path(fastep: McpServerProcess) -> None:
    """A Carter module deriving from `CarterModule("/books")` has its AddRoutes(app) routes mapped on a group with
    that base path: they were listed at the app's root (`GET /{id:int}`). A plain ICarterModule has none, and
    FastEndpoints' RoutePrefix "api" is not Carter's."""
    env = fastep.call("surfaces_list_endpoints", {"path_filter": "/", "limit": 50})
    modules = "src/FastEp.Api/Modules/CatalogModules.cs"
    assert [(e["method"], e["route"], e["handler"], e["line"], e["confidence"])
            for e in env["data"]["endpoints"] if e["file"] == modules] == [
        # `: base("/authors")` in a constructor
        ("DELETE", "/authors/{id:int}",
         "M:FastEp.Api.Modules.AuthorsModule.AddRoutes(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder)", 30,
         "high"),
        # `() : CarterModule(BasePath)`, a const: the primary constructor's base argument
        ("POST", "/books",
         "M:FastEp.Api.Modules.BooksModule.AddRoutes(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder)", 19, "high"),
        ("GET", "/books/{id:int}", "M:FastEp.Api.Modules.Shelves.Find(System.Int32)", 18, "high"),
        ("GET", "/shelves", "M:FastEp.Api.Modules.Shelves.All", 8, "high")]


def test_an_endpoint_inheriting_its_handler_is_not_unused(fastep: McpServerProcess) -> None:
    """FastEndpoints' assembly scan finds `PingV1 : Ping`, which overrides Configure alone and handles its route with
    Ping's HandleAsync: it was listed unused. Carter's modules, found by Carter's scan, stay out too."""
    env = fastep.call("symbols_unused", {"limit": 100})
    assert [u["symbol_id"] for u in env["data"]["unused"]] == ["M:FastEp.Api.Startup.Configure"]
