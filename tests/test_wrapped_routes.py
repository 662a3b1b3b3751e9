"""Routes mapped through the solution's own Map{Verb} wrappers, over MCP stdio (testdata/Wrapped,
jasontaylordev/CleanArchitecture's web layer).

`MapGet(this IEndpointRouteBuilder builder, Delegate handler, string pattern = "")` forwards to the framework's
`builder.MapGet(pattern, handler)`: the route exists only at each call of the wrapper, which gives the handler,
the pattern (or its default) and the group. Groups handed over by a call are followed; groups handed over by
reflection (`MapEndpoints(assembly)`) cannot be, and the routes say so instead of posing as complete.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

EXT = "M:Wrapped.Web.Infrastructure.EndpointRouteBuilderExtensions."
WRAPPER = "(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder,System.Delegate,System.String)"
PRODUCTS = "M:Wrapped.Web.Endpoints.Products."
TODO = "M:Wrapped.Web.Endpoints.TodoItems."


@pytest.fixture(scope="module")
def wrapped(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Wrapped", tmp_path_factory, home)


def test_each_call_of_a_wrapper_is_a_route(wrapped: McpServerProcess) -> None:
    env = wrapped.call("surfaces_list_endpoints", {"limit": 50})
    assert env["answer"] == "17 endpoints (10 POST, 6 GET, 1 PUT)."
    assert [(e["method"], e["route"], e["handler"], e["file"], e["line"], e.get("via"), e.get("group_prefix"),
             e.get("handler_kind")) for e in env["data"]["endpoints"]
            if e["source"] == "minimal" and not e["file"].endswith("OrdersModule.cs")] == [
        # TodoItems.Map is handed its group by reflection: the prefix (/api/TodoItems) is not known
        ("POST", "/", f"{TODO}CreateTodoItem(System.String)", "src/Wrapped.Web/Endpoints/TodoItems.cs", 10,
         f"{EXT}MapPost{WRAPPER}", "unknown", None),
        # api.MapGet(GetVersion): the pattern's default "" on the /api group
        ("GET", "/api", "M:Program.<Main>$(System.String[]).GetVersion", "src/Wrapped.Web/Program.cs", 14,
         f"{EXT}MapGet{WRAPPER}", None, None),
        # Products.Map(api.MapGroup("/products")): the group a call hands over, a named pattern argument, a lambda
        ("GET", "/api/products/count", f"{PRODUCTS}Map(Microsoft.AspNetCore.Routing.RouteGroupBuilder)",
         "src/Wrapped.Web/Endpoints/Products.cs", 11, f"{EXT}MapGet{WRAPPER}", None, "lambda"),
        ("GET", "/api/products/{id:int}", f"{PRODUCTS}GetProduct(System.Int32)",
         "src/Wrapped.Web/Endpoints/Products.cs", 10, f"{EXT}MapGet{WRAPPER}", None, None),
        ("PUT", "/{id}", f"{TODO}UpdateTodoItem(System.Int32,System.String)", "src/Wrapped.Web/Endpoints/TodoItems.cs",
         11, f"{EXT}MapPut{WRAPPER}", "unknown", None)]
    assert env["warnings"] == [
        "2 of these routes are mapped on a route group their method is handed, and no call in the solution hands it "
        "one (a registration by reflection?): they are shown without the group's prefix (group_prefix: unknown)."]


def test_the_wrappers_own_framework_calls_map_nothing(wrapped: McpServerProcess) -> None:
    """`builder.MapGet(pattern, handler)` inside the wrapper has no constant pattern: no route of its own."""
    env = wrapped.call("surfaces_list_endpoints", {"path_filter": "pattern"})
    assert env["data"]["endpoints"] == []
    handlers = {e["handler"] for e in wrapped.call("surfaces_list_endpoints", {})["data"]["endpoints"]}
    assert not any(h.startswith(EXT) for h in handlers)


def test_identity_api_routes_come_with_map_identity_api(wrapped: McpServerProcess) -> None:
    """`app.MapGroup("/account").MapIdentityApi<IdentityUser>()`: the routes ASP.NET Core Identity maps."""
    env = wrapped.call("surfaces_list_endpoints", {"path_filter": "/account", "limit": 50})
    assert [(e["method"], e["route"]) for e in env["data"]["endpoints"]] == [
        ("GET", "/account/confirmEmail"), ("POST", "/account/forgotPassword"), ("POST", "/account/login"),
        ("POST", "/account/manage/2fa"), ("GET", "/account/manage/info"), ("POST", "/account/manage/info"),
        ("POST", "/account/refresh"), ("POST", "/account/register"), ("POST", "/account/resendConfirmationEmail"),
        ("POST", "/account/resetPassword")]
    assert {(e["handler"], e["file"], e["line"], e["source"], e["confidence"]) for e in env["data"]["endpoints"]} == {
        ("M:Program.<Main>$(System.String[])", "src/Wrapped.Web/Program.cs", 11, "identity_api", "high")}


def test_a_carter_modules_base_path_prefixes_its_routes(wrapped: McpServerProcess) -> None:
    """OrdersModule : CarterModule, `: base("/orders")`: Carter calls its AddRoutes on that group."""
    env = wrapped.call("surfaces_list_endpoints", {"path_filter": "/orders"})
    assert [(e["method"], e["route"], e["line"], e.get("group_prefix"), e.get("handler_kind"))
            for e in env["data"]["endpoints"]] == [("POST", "/orders", 17, None, "lambda"),
                                                   ("GET", "/orders/{id:int}", 16, None, "lambda")]
    assert {e["handler"] for e in env["data"]["endpoints"]} == {
        "M:Wrapped.Web.Endpoints.OrdersModule.AddRoutes(Microsoft.AspNetCore.Routing.IEndpointRouteBuilder)"}


def test_a_scrutor_scan_registers_each_selection(wrapped: McpServerProcess) -> None:
    """`services.Scan(s => s.FromAssemblyOf<INotifier>().AddClasses(c => c.AssignableTo<INotifier>())...)`: the
    classes are found at run time; each AddClasses selection is a registration (there was none: "where is INotifier
    registered?" had no answer)."""
    env = wrapped.call("surfaces_list", {"kind": "di", "filter": "Notif"})
    setup = ("M:Wrapped.Web.Infrastructure.NotifierSetup.AddNotifiers("
             "Microsoft.Extensions.DependencyInjection.IServiceCollection)")
    assert [(r["service"], r.get("service_id"), r.get("lifetime"), r["form"], r.get("as"), r.get("assignable_to"),
             r["registered_in"], r["line"], r["confidence"]) for r in env["data"]["registrations"]] == [
        ("INotifier", "T:Wrapped.Web.Infrastructure.INotifier", "Scoped", "scan", "AsImplementedInterfaces",
         "INotifier", setup, 23, "high"),
        # Program's call of the extension itself
        ("AddNotifiers", None, None, "extension", None, None, "M:Program.<Main>$(System.String[])", 7, "high")]
    env = wrapped.call("surfaces_list", {"kind": "di", "filter": "Clock"})
    assert [(r["service"], r.get("service_id"), r["lifetime"], r["form"], r.get("assignable_to"))
            for r in env["data"]["registrations"]] == [
        ("IClock", "T:Wrapped.Web.Infrastructure.IClock", "Singleton", "scan", "IClock")]
    env = wrapped.call("surfaces_list", {"kind": "di", "filter": "scanned"})
    assert [(r["service"], r["lifetime"], r.get("as"), r.get("assignable_to"))
            for r in env["data"]["registrations"]] == [("(scanned types)", "Transient", "AsSelf", None)]
