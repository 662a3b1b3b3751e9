"""testdata/Partial: Exceptionless under a partial restore (its OAuth2, Foundatio.Mediator and Foundatio.Messaging
packages missing): implementations across projects whose signatures name a missing type, convention mediator
handlers, a configuration section kept in a field, YAML configuration files, a method group handed to an unbound
subscription."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

GITHUB = "M:Partial.Tests.TestOAuthProviderClient.GetGitHubUserInfoAsync(System.String)"
GET_ORDER = "M:Partial.Web.Orders.OrderHandler.Handle(Partial.Web.Orders.GetOrder)"
CANCEL_ORDER = ("M:Partial.Web.Orders.OrderHandler.HandleAsync(Partial.Web.Orders.CancelOrder,"
                "System.Threading.CancellationToken)")
MAIN = "M:Program.<Main>$(System.String[])"


@pytest.fixture(scope="module")
def partial(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Partial", tmp_path_factory, home, exit_code=2)


def test_unused_matches_implementations_whose_signature_names_a_missing_type(partial: McpServerProcess) -> None:
    """Exceptionless.Tests' TestOAuthProviderClient.Get*UserInfoAsync were unused with 0 callers: `Task<UserInfo>`,
    UserInfo missing in both projects, left no Implementation reference. A convention handler (OrderHandler.Handle)
    was unused as its class: the mediator finds it by name."""
    env = partial.call("symbols_unused", {})
    assert [(u["symbol_id"], u["line"]) for u in env["data"]["unused"]] == [
        ("M:Partial.Web.MessageBusBroker.StartAsync", 9),
        ("M:Partial.Web.IOAuthProviderClient.ProviderName(System.Int32)", 9),
        ("M:Partial.Web.LoginService.LoginWithGoogleAsync(System.String)", 16),
        ("T:Partial.Web.IExporter", 22),
        # an overload whose list names a missing type: IEnumerable{UserInfo} is no IEnumerable{String}
        ("M:Partial.Web.CsvExporter.Export(System.Collections.Generic.IEnumerable{UserInfo})", 31),
        ("T:Partial.Web.Exports", 34),
        ("T:Partial.Web.Orders.OrderAuditor", 22),  # not named like a handler: no mediator runs it
        ("M:Partial.Tests.TestOAuthProviderClient.GetGoogleUserInfoAsync(System.String)", 13),  # one parameter less
        ("M:Partial.Tests.TestOAuthProviderClient.GetFacebookUserInfoAsync(System.String)", 17)]  # not the interface's
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        "constructed": 4, "dispatch": 3, "entry_point": 1, "framework_entry": 5, "serialization": 7, "test": 3,
        "unbound_name": 2}


def test_callers_reach_an_unlinked_implementation_through_its_interface(partial: McpServerProcess) -> None:
    env = partial.call("graph_callers", {"symbol_id": GITHUB, "depth": 2})
    assert env["answer"] == ("3 bound callers of Partial.Tests.TestOAuthProviderClient.GetGitHubUserInfoAsync within"
                             " depth 2 (1 edge through interface/virtual dispatch).")
    first = env["data"]["nodes"][0]
    assert (first["symbol_id"], first["edges"]) == ("M:Partial.Web.LoginService.LoginAsync(System.String)", [
        {"kind": "Call", "count": 1, "via": "M:Partial.Web.IOAuthProviderClient.GetGitHubUserInfoAsync(System.String)",
         "inferred": "unlinked_signature", "line": 14}])
    assert [(n["symbol_id"], n["depth"]) for n in env["data"]["nodes"][1:]] == [
        ("M:Partial.Tests.LoginTests.LogsIn", 2), (MAIN, 2)]


def test_a_convention_handler_is_reached_by_mediator_invoke(partial: McpServerProcess) -> None:
    """Exceptionless's TokenHandler.Handle(GetTokensByOrganization): "0 endpoints and 0 tests reach it"."""
    impact = partial.call("impact_analyze", {"symbol_id": GET_ORDER})
    assert impact["data"]["endpoints"] == [{"endpoint": "GET /orders/{id}", "handler": MAIN}]
    assert [(t["test"], t["line"]) for t in impact["data"]["tests"]] == [("M:Partial.Tests.LoginTests.GetsAnOrder", 14)]
    assert impact["data"]["callers"] == [
        {"symbol_id": MAIN, "depth": 1, "file": "src/Partial.Web/Program.cs", "line": 5, "through": "mediator"}]
    tests = partial.call("tests_find", {"symbol_id": GET_ORDER})
    assert [t["test"] for t in tests["data"]["tests"]] == ["M:Partial.Tests.LoginTests.GetsAnOrder"]
    trace = partial.call("graph_trace_feature", {"entry_point": "DELETE /orders/{id}"})
    handled = [n for n in trace["data"]["nodes"] if n.get("symbol_id") == CANCEL_ORDER]
    assert [n["from"] for n in handled] == [
        {"from": MAIN, "kind": "Mediator", "via": "T:Partial.Web.Orders.CancelOrder"}]


def test_config_section_in_a_field_and_yaml_files(partial: McpServerProcess) -> None:
    """Exceptionless's ApmConfig: `_apmConfig = config.GetSection("Apm")` in an IConfiguration field read
    `ServiceName` at the root; its appsettings*.yml were not read (BaseURL was used_but_undefined)."""
    env = partial.call("surfaces_list_config_keys", {})
    assert {k["key"]: (k["status"], [u["line"] for u in k["usages"]],
                       [(d["file"].rsplit("/", 1)[-1], d["line"], d.get("environment")) for d in k["defined_in"]])
            for k in env["data"]["keys"]} == {
        "AllowedHosts:0": ("read_by_framework", [], [("appsettings.yml", 9, None)]),
        "AllowedHosts:1": ("read_by_framework", [], [("appsettings.yml", 10, None)]),
        "Apm": ("used", [11, 17], []),
        "Apm:Debug": ("used", [], [("appsettings.Development.yml", 2, "Development")]),
        "Apm:EnableLogs": ("used", [25], [("appsettings.yml", 5, None)]),
        "Apm:ServiceName": ("used", [23], [("appsettings.yml", 4, None)]),
        "BaseURL": ("defined_but_unused", [], [("appsettings.yml", 2, None)]),
        "Logging:LogLevel:Default": ("read_by_framework", [], [("appsettings.json", 2, None)]),
        "Storage": ("used", [12], []),
        "Storage:Bucket": ("used", [], [("appsettings.yml", 7, None)]),
        "{_store}:Bucket": ("dynamic", [29], []),  # given two sections: under whichever it holds
        '{legacy ? "LegacyStorage" : "Storage"}': ("dynamic", [18], []),
        "{Tracing}:Ratio": ("dynamic", [27], [])}  # an IConfigurationSection given no section here: handed


def test_callers_say_a_method_group_handed_to_an_unbound_call(partial: McpServerProcess) -> None:
    """Exceptionless's MessageBusBroker.OnPlanChangedAsync, subscribed on Foundatio's unbound bus: "No callers"."""
    env = partial.call("graph_callers", {"symbol_id": "M:Partial.Web.MessageBusBroker.OnPlanChangedAsync("
                                                       "Partial.Web.PlanChanged)"})
    assert env["answer"] == ("0 bound callers of Partial.Web.MessageBusBroker.OnPlanChangedAsync within depth 1 + 1"
                             " unbound reference to its name, not a call (src/Partial.Web/Broker.cs:9).")
    assert "refs_find lists them" in env["warnings"][-1] and "guidance" not in env
