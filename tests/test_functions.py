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
SETTINGS = "src/Functions.Worker/local.settings.json"


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
        ("M:Functions.Orders.AuditFunctions.Audit(System.String)", "Audit", "QueueTrigger", 37),
        (f"{worker}Daily(Microsoft.Azure.Functions.Worker.Http.HttpRequestData)", "DailyReport", "HttpTrigger", 9),
        (f"{worker}Cleanup(Microsoft.Azure.Functions.Worker.TimerInfo)", "Cleanup", "TimerTrigger", 12),
        ("M:Functions.Worker.Maintenance.Nightly(Microsoft.Azure.Functions.Worker.TimerInfo)", "Nightly",
         "TimerTrigger", 24)]
    assert [(p["name"], p["role"]) for p in env["data"]["projects"]] == [
        ("Functions.Orders", "web"), ("Functions.Worker", "web")]


def test_a_function_app_is_no_library_its_dead_code_is_unused(functions: McpServerProcess) -> None:
    """Functions run by their host (`framework_entry`); the app's public members are no published API: Totals.
    Unreferenced, which nothing calls, is unused. A `[Function]` without a trigger parameter is no function."""
    env = functions.call("symbols_unused", {})
    assert env["ok"], env
    assert [u["symbol_id"] for u in env["data"]["unused"]] == ["M:Functions.Orders.Totals.Unreferenced"]
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        "framework_entry": 11,  # the seven functions, their four classes
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
            for k in env["data"]["keys"] if k["usages"] and k["usages"][0]["pattern"] == "environment_variable"] == [
        ("Orders:Queue", "used_but_undefined", [read]), ("StorageAccount", "used_but_undefined", [read])]


def test_bindings_read_the_settings_local_settings_json_defines(functions: McpServerProcess) -> None:
    """`%name%` in a trigger's or binding's strings and `Connection = "Bus"` read app settings (the connection also
    as ConnectionStrings:Bus or AzureWebJobsBus: `alternatives`, and a definition of one of them is the setting
    set), on parameters, the method and its return value, the attribute bound (TimerTrigger: high) or not (medium).
    local.settings.json's `Values` and `ConnectionStrings` define them; the host's own settings are its to read."""
    env = functions.call("surfaces_list_config_keys", {})
    assert env["ok"], env
    audit, nightly = "M:Functions.Orders.AuditFunctions.Audit(System.String)", \
        "M:Functions.Worker.Maintenance.Nightly(Microsoft.Azure.Functions.Worker.TimerInfo)"
    keys = {k["key"]: k for k in env["data"]["keys"]}
    assert [(k, e["status"], [(u["symbol_id"], u["line"], u["pattern"], u.get("confidence", "high"),
                                u.get("alternatives")) for u in e["usages"]],
             [(d["file"], d["line"], d["source"]) for d in e["defined_in"]])
            for k, e in keys.items() if k not in ("Orders:Queue", "StorageAccount")] == [
        ("AuditLog", "used_but_undefined", [(audit, 38, "functions_binding", "medium", None)], []),
        ("AuditQueue", "used_but_undefined", [(audit, 39, "functions_binding", "medium", None)], []),
        ("AuditStorage", "used_but_undefined", [(audit, 39, "functions_binding", "medium",
                                                  ["ConnectionStrings:AuditStorage", "AzureWebJobsAuditStorage"])], []),
        ("AzureWebJobsStorage", "read_by_framework", [], [(SETTINGS, 4, "local_settings")]),
        ("Bus", "used", [(nightly, 25, "functions_binding", "medium", ["ConnectionStrings:Bus", "AzureWebJobsBus"])],
         []),
        ("CleanupSchedule", "used", [(nightly, 26, "functions_binding", "high", None)],
         [(SETTINGS, 6, "local_settings")]),
        ("ConnectionStrings:Bus", "used", [], [(SETTINGS, 11, "local_settings")]),
        ("FUNCTIONS_WORKER_RUNTIME", "read_by_framework", [], [(SETTINGS, 5, "local_settings")]),
        ("Reports:Queue", "used", [(nightly, 25, "functions_binding", "medium", None)],
         [(SETTINGS, 7, "local_settings")]),
        ("Retired:Setting", "defined_but_unused", [], [(SETTINGS, 8, "local_settings")])]
