"""The review tools on testdata/Tested, indexed by real Roslyn and served over MCP: test attributes
(xUnit from its package, NUnit and MSTest attributes declared in source), an HttpClient call reaching a
minimal-API route, package references from project.assets.json, and a diff between two commits."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import indexed_copy, roslynmap
from tests.mcp_client import McpServerProcess, edited_workspace
from tests.repos import GIT_ENV

COMPUTE = "M:Tested.Core.PriceCalculator.Compute(System.Int32)"
PLACE = "M:Tested.Core.OrderService.Place(System.Int32)"
QUOTE = "M:Tested.Api.OrderEndpoints.Quote(System.Int32)"
TESTS = "tests/Tested.Tests/"


def name(symbol_id: str) -> str:
    return symbol_id.split("(")[0].rsplit(".", 1)[1]


@pytest.fixture(scope="module")
def tested(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    return indexed_copy("Tested", tmp_path_factory.mktemp("repos") / "Tested", home)


@pytest.fixture(scope="module")
def server(tested: Path, home: Path) -> Iterator[McpServerProcess]:
    proc = McpServerProcess(tested, {"ROSLYNMAP_HOME": str(home)})
    yield proc
    proc.close()


def test_tests_of_a_member_by_framework_path_and_route(server: McpServerProcess) -> None:
    env = server.call("tests_find", {"symbol_id": COMPUTE})
    assert env["answer"] == "4 tests reach Tested.Core.PriceCalculator.Compute within depth 4 (1 functional, " \
                            "through a route)."
    assert [(name(t["test"]), t["framework"], t["attribute"], t["file"], t["line"], t["depth"])
            for t in env["data"]["tests"]] == [
        ("ComputesThroughTheInterface", "nunit", "Test", TESTS + "LegacyTests.cs", 8, 1),
        ("ComputeDoubles", "xunit", "Theory", TESTS + "OrderServiceTests.cs", 17, 1),
        ("PlaceDoublesTheQuantity", "xunit", "Fact", TESTS + "OrderServiceTests.cs", 9, 2),
        ("QuoteAnswers", "xunit", "Fact", TESTS + "ApiTests.cs", 12, 3),
    ]
    functional = env["data"]["tests"][-1]
    assert (functional["route"], functional["call"], functional["via"]) == (
        "GET /api/orders/{id:int}", "GET /api/orders/5", [QUOTE, PLACE])
    archive = server.call("tests_find", {"symbol_id": "OrderService.Archive"})["data"]["tests"]
    assert [(t["test"], t["framework"], t["attribute"], t["line"]) for t in archive] == [
        ("M:Tested.Tests.MSTestStyleTests.ArchiveDoesNothing", "mstest", "TestMethod", 18)]


def test_a_mock_setup_is_a_reference_not_a_call(server: McpServerProcess) -> None:
    """`calculator.Setup(c => c.Compute(2))` names Compute in an expression tree: refs_find lists it as MockSetup,
    graph_callers and tests_find leave MockTests out (the test above still counts 4)."""
    refs = server.call("refs_find", {"symbol_id": "IPriceCalculator.Compute"})["data"]["references"]
    assert [(r["kind"], r["file"].rsplit("/", 1)[-1], r["line"]) for r in refs if r["kind"] == "MockSetup"] == [
        ("MockSetup", "MockTests.cs", 14), ("MockSetup", "MockTests.cs", 15)]
    callers = server.call("graph_callers", {"symbol_id": "IPriceCalculator.Compute"})["data"]["nodes"]
    assert [n["symbol_id"] for n in callers] == [PLACE, "M:Tested.Tests.NUnitStyleTests.ComputesThroughTheInterface"]


def test_a_test_host_inherits_the_configuration_of_the_app_it_runs(server: McpServerProcess) -> None:
    """eShopOnWeb's PublicApiIntegrationTests: a test project with its own appsettings.test.json runs the app
    (Tested.Api) in process, so a key the app's appsettings.json defines is defined for it too. Pricing:Factor
    is read by the library Tested.Core, loaded by both."""
    env = server.call("surfaces_list_config_keys", {})
    assert env["answer"] == "2 configuration keys."
    assert env["data"]["by_status"] == [{"status": "defined_but_unused", "count": 1}, {"status": "used", "count": 1}]
    assert [(k["key"], k["status"], k.get("undefined_in"), k["projects"]) for k in env["data"]["keys"]] == [
        ("Pricing:Factor", "used", None, ["Tested.Api", "Tested.Core"]),
        ("UseInMemoryDatabase", "defined_but_unused", None, ["Tested.Tests"])]
    scoped = server.call("surfaces_list_config_keys", {"project": "Tested.Tests"})
    assert [(k["key"], k["status"]) for k in scoped["data"]["keys"]] == [
        ("Pricing:Factor", "used"), ("UseInMemoryDatabase", "defined_but_unused")]


def test_impact_in_one_call(server: McpServerProcess) -> None:
    env = server.call("impact_analyze", {"symbol_id": "OrderService.Place"})
    data = env["data"]
    assert env["answer"] == (
        "Changing Tested.Core.OrderService.Place touches 2 callers (1 of them tests) within depth 4, "
        "2 references in 2 files, 3 files of 3 projects in all; 1 endpoint and 2 tests reach it.")
    # The test among the callers is listed once, under tests.
    assert [c["symbol_id"] for c in data["callers"]] == [QUOTE]
    assert data["references_by_kind"] == {"Call": 2}
    assert data["endpoints"] == [{"endpoint": "GET /api/orders/{id:int}", "handler": QUOTE}]
    assert sorted(data["projects"]) == ["Tested.Api", "Tested.Core", "Tested.Tests"]
    assert [name(t["test"]) for t in data["tests"]] == ["PlaceDoublesTheQuantity", "QuoteAnswers"]


def test_projects_graph_reads_project_references_and_restored_packages(server: McpServerProcess) -> None:
    env = server.call("projects_graph")
    assert env["answer"] == "3 projects, 2 project references, 1 package."
    # Tested.Tests writes Tested.Api only; Tested.Core comes through it (`transitive`).
    assert [(p["project"], p["output_kind"], p["references"], p.get("transitive"), p["referenced_by"], p["packages"])
            for p in env["data"]["projects"]] == [
        ("Tested.Api", "Exe", ["Tested.Core"], None, ["Tested.Tests"], []),
        ("Tested.Core", "Library", [], None, ["Tested.Api"], []),
        ("Tested.Tests", "Library", ["Tested.Api"], ["Tested.Core"], [],
         [{"name": "xunit", "version": "2.9.3", "requested": "[2.9.3, )"}]),
    ]


def test_unused_symbols(server: McpServerProcess) -> None:
    env = server.call("symbols_unused")
    assert [(u["symbol_id"], u["line"]) for u in env["data"]["unused"]] == [
        ("M:Tested.Core.OrderService.Round(System.Decimal)", 31), ("T:Tested.Core.LegacyPricing", 34)]
    # 7 test methods and the 3 classes none of whose members another member uses (MockTests among them)
    assert env["data"]["excluded"]["test"]["count"] == 10


def test_diff_of_a_workspace_reads_its_edits(tested: Path, server: McpServerProcess) -> None:
    with edited_workspace(server, tested / "src/Tested.Core/Pricing.cs", "private static decimal Round(",
                          "private static decimal RoundUp(", "review") as refreshed:
        assert refreshed["ok"], refreshed
        env = server.call("diff_semantic", {"workspace_id": "review"})
    assert env["data"]["counts"] == {"added": 1, "removed": 1, "signature_changed": 0}
    assert [(i["change"], i["symbol_id"]) for i in env["data"]["symbols"]] == [
        ("removed", "M:Tested.Core.OrderService.Round(System.Decimal)"),
        ("added", "M:Tested.Core.OrderService.RoundUp(System.Decimal)")]
    assert env["data"]["surfaces"] == {}


def test_diff_between_two_commits(tested: Path, home: Path) -> None:
    base = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tested, capture_output=True, text=True,
                          check=True).stdout.strip()
    pricing = tested / "src/Tested.Core/Pricing.cs"
    legacy = "internal static class LegacyPricing\n{\n    public static decimal Flat() => 1m;\n}\n"
    pricing.write_text(pricing.read_text().replace("public void Archive()", "public void Archive(bool all)")
                       .replace(legacy, ""))
    program = tested / "src/Tested.Api/Program.cs"
    program.write_text(program.read_text().replace('app.MapGet("/api/health", OrderEndpoints.Health);\n', ""))
    tests = tested / "tests/Tested.Tests/LegacyTests.cs"
    tests.write_text(tests.read_text().replace(".Archive()", ".Archive(true)"))
    subprocess.run(["git", "commit", "-qam", "change"], cwd=tested, check=True, env={**os.environ, **GIT_ENV})
    done = roslynmap("index", str(tested), "--json", env={"ROSLYNMAP_HOME": str(home)})
    assert done.returncode == 0, done.stdout + done.stderr
    proc = McpServerProcess(tested, {"ROSLYNMAP_HOME": str(home)})
    try:
        env = proc.call("diff_semantic", {"base_commit": base[:8]})
    finally:
        proc.close()
    assert env["data"]["counts"] == {"added": 0, "removed": 2, "signature_changed": 1}
    changed = env["data"]["symbols"][0]
    assert (changed["symbol_id_before"], changed["symbol_id"], changed["before"], changed["signature"]) == (
        "M:Tested.Core.OrderService.Archive", "M:Tested.Core.OrderService.Archive(System.Boolean)",
        "public void Archive()", "public void Archive(bool all)")
    assert [i["symbol_id"] for i in env["data"]["symbols"][1:]] == [
        "T:Tested.Core.LegacyPricing", "M:Tested.Core.LegacyPricing.Flat"]
    assert env["data"]["surfaces"] == {"endpoints": {"added": [], "removed": [
        {"key": "GET /api/health", "file": "src/Tested.Api/Program.cs", "line": 6}]}}
