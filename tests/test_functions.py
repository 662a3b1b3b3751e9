"""Azure Functions on testdata/Functions: a function app is a class library the Functions host loads, whose
`[FunctionName]`/`[Function]` methods run when their triggers fire. trading-app-functions-dotnet's 71 functions read
as "7 libraries, 0 entry points, 0 endpoints", their dead code hidden as a library's public API."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

ORDERS = "src/Functions.Orders/OrderFunctions.cs"


@pytest.fixture(scope="module")
def functions(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    # Functions.Orders does not reference the storage extension its QueueTrigger comes from: partial (exit 2).
    yield from served_copy("Functions", tmp_path_factory, home, exit_code=2)


def test_http_functions_are_endpoints_under_the_host_route_prefix(functions: McpServerProcess) -> None:
    """host.json's `routePrefix` ("v1") for the in-process app; the host's default ("api") for the worker without
    one. No `Route`: the function's name. No verb listed: any."""
    env = functions.call("surfaces_list_endpoints", {})
    assert env["ok"], env
    assert [(e["method"], e["route"], e["handler"], e["file"], e["line"], e["source"])
            for e in env["data"]["endpoints"]] == [
        ("ANY", "/api/reports/daily", "M:Functions.Worker.Reports.Daily(Microsoft.Azure.Functions.Worker.Http."
         "HttpRequestData)", "src/Functions.Worker/Reports.cs", 10, "azure_functions"),
        ("GET", "/v1/ListOrders", "M:Functions.Orders.OrderFunctions.List(Microsoft.AspNetCore.Http.HttpRequest)",
         ORDERS, 12, "azure_functions"),
        ("POST", "/v1/ListOrders", "M:Functions.Orders.OrderFunctions.List(Microsoft.AspNetCore.Http.HttpRequest)",
         ORDERS, 12, "azure_functions"),
        ("GET", "/v1/orders/{id}", "M:Functions.Orders.OrderFunctions.Get(Microsoft.AspNetCore.Http.HttpRequest,"
         "System.String)", ORDERS, 16, "azure_functions")]


def test_every_function_is_an_entry_point_of_an_app(functions: McpServerProcess) -> None:
    env = functions.call("repo_overview", {})
    assert env["ok"], env
    orders, worker = "M:Functions.Orders.OrderFunctions.", "M:Functions.Worker.Reports."
    assert [(e["symbol_id"], e["function"], e["trigger"], e["line"]) for e in env["data"]["entry_points"]] == [
        (f"{orders}List(Microsoft.AspNetCore.Http.HttpRequest)", "ListOrders", "HttpTrigger", 11),
        (f"{orders}Get(Microsoft.AspNetCore.Http.HttpRequest,System.String)", "GetOrder", "HttpTrigger", 15),
        (f"{orders}Ship(System.String)", "ShipOrder", "QueueTrigger", 21),  # its trigger unbound: still a function
        (f"{worker}Daily(Microsoft.Azure.Functions.Worker.Http.HttpRequestData)", "DailyReport", "HttpTrigger", 9),
        (f"{worker}Cleanup(Microsoft.Azure.Functions.Worker.TimerInfo)", "Cleanup", "TimerTrigger", 12)]
    assert [(p["name"], p["role"]) for p in env["data"]["projects"]] == [
        ("Functions.Orders", "web"), ("Functions.Worker", "web")]


def test_a_function_app_is_no_library_its_dead_code_is_unused(functions: McpServerProcess) -> None:
    """Functions run by their host (`framework_entry`); the app's public members are no published API: Totals.
    Unreferenced, which nothing calls, is unused. A `[Function]` without a trigger parameter is no function."""
    env = functions.call("symbols_unused", {})
    assert env["ok"], env
    assert [u["symbol_id"] for u in env["data"]["unused"]] == ["M:Functions.Orders.Totals.Unreferenced"]
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        "framework_entry": 7,  # the five functions, their two classes
        "found_by_attribute": 1,  # Reports.Helper: `[Function]`, a package's attribute, though no trigger
        "dispatch": 1}  # EnvironmentSettings.Get, ISettings.Get's implementation


def test_keys_read_through_an_interface_implemented_with_environment_variables(functions: McpServerProcess) -> None:
    """`settings.Get(SettingKeys.Storage)`: ISettings.Get's one implementation reads
    `Environment.GetEnvironmentVariable(key)`, and SettingKeys' properties return literals; `__` is `:` to the
    environment variables provider."""
    env = functions.call("surfaces_list_config_keys", {})
    assert env["ok"], env
    read = ("M:Functions.Orders.Shipping.Send", 24, "environment_variable",
            "M:Functions.Orders.ISettings.Get(System.String)")
    assert [(k["key"], k["status"], [(u["symbol_id"], u["line"], u["pattern"], u["through"]) for u in k["usages"]])
            for k in env["data"]["keys"]] == [
        ("Orders:Queue", "used_but_undefined", [read]), ("StorageAccount", "used_but_undefined", [read])]
