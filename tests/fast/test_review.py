"""tests_find, impact_analyze, symbols_unused, projects_graph and diff_semantic over the three-project
sample of tests/fast/review_sample.py (two commits, each with its baseline), through the real envelope."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from roslynmap.mcp import api
from roslynmap.store.repo import RepoInfo

from tests.fast.conftest import Call
from tests.fast.review_sample import (
    CALC_COMPUTE,
    COMPUTE,
    review_sample,
    write_repo,
)

# Answers name symbols by short ids (query/shortids.py): no type name of the sample is shared, so every
# namespace is left out. Inputs take either form.
S_COMPUTE, S_CALC_COMPUTE = "M:ICalc.Compute(Int32)", "M:Calc.Compute(Int32)"
S_PLACE, S_QUOTE = "M:Service.Place(Int32)", "M:Endpoints.Quote(Int32)"
S_PLACE_WORKS, S_API_WORKS = "M:PricingTests.PlaceWorks", "M:PricingTests.ApiWorks"


@pytest.fixture(scope="module")
def commits(tmp_path_factory: pytest.TempPathFactory, home: Path) -> tuple[RepoInfo, RepoInfo]:
    return write_repo(tmp_path_factory.mktemp("review") / "Review")


@pytest.fixture(scope="module")
def first_only(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Call:
    """The first commit alone (HEAD has the original Service.Place)."""
    from roslynmap.store.repo import inspect_repo

    from tests.fast.batches import git
    from tests.fast.review_sample import write

    root = tmp_path_factory.mktemp("review1") / "Review"
    root.mkdir()
    sample = review_sample()
    for path, text in sample.files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "one")
    write(inspect_repo(str(root)), sample)
    allowed = api.confinement([str(root)])
    return lambda tool, **args: api.call(tool, args, str(root), allowed)


@pytest.fixture(scope="module")
def review(commits: tuple[RepoInfo, RepoInfo]) -> Call:
    root = str(commits[1].root)
    allowed = api.confinement([root])

    def run(tool: str, **args: Any) -> dict[str, Any]:
        return api.call(tool, args, root, allowed)

    return run


def test_tests_find_follows_calls_through_the_interface_and_a_route(first_only: Call) -> None:
    out = first_only("tests_find", symbol_id=CALC_COMPUTE)
    assert out["ok"], out
    assert out["answer"] == "2 tests reach Calc.Compute within depth 4 (1 functional, through a route)."
    assert out["data"]["tests"] == [
        {"test": S_PLACE_WORKS, "framework": "xunit", "attribute": "Fact", "file": "tests/Tests/Tests.cs", "line": 6,
         "depth": 2, "via": [S_PLACE]},
        {"test": S_API_WORKS, "framework": "xunit", "attribute": "Fact", "file": "tests/Tests/Tests.cs", "line": 12,
         "depth": 3, "via": [S_QUOTE, S_PLACE], "kind": "functional",
         "route": "GET /api/quote/{id:int}", "call": "GET /api/quote/5"},
    ]
    assert out["data"]["by_project"] == {"Tests": 2}


def test_tests_find_at_depth_one_sees_only_direct_callers(first_only: Call) -> None:
    out = first_only("tests_find", symbol_id="Service.Place", depth=1)
    # the functional test is one route hop past the handler, a direct caller
    assert [(t["test"], t["depth"]) for t in out["data"]["tests"]] == [(S_PLACE_WORKS, 1), (S_API_WORKS, 2)]
    none = first_only("tests_find", symbol_id=COMPUTE, depth=1)
    assert none["data"]["tests"] == [] and none["hint"].startswith("No test reaches it within depth 1")


def test_impact_groups_callers_implementations_refs_tests_and_projects(first_only: Call) -> None:
    out = first_only("impact_analyze", symbol_id=S_COMPUTE)  # a short id, as answers give it
    assert out["ok"], out
    assert out["answer"] == ("Changing ICalc.Compute touches 3 callers (1 of them tests) within depth 4, 1 "
                             "implementations/overrides, 2 references in 1 file, 3 files of 3 projects in all; "
                             "1 endpoint and 2 tests reach it.")
    data = out["data"]
    # The third caller, PlaceWorks, is a test: listed once, under tests (with its path, via Place).
    assert data["callers"] == [
        {"symbol_id": S_PLACE, "depth": 1, "file": "src/Core/Pricing.cs", "line": 17},  # calls the symbol itself
        {"symbol_id": S_QUOTE, "depth": 2, "file": "src/App/Endpoints.cs", "line": 5, "calls": S_PLACE},
    ]
    assert data["implementations"] == [{"symbol_id": S_CALC_COMPUTE, "file": "src/Core/Pricing.cs", "line": 10}]
    assert data["references_by_kind"] == {"Call": 1, "Implementation": 1}
    # zero counts unsaid
    assert data["projects"] == {"App": {"files": 1, "callers": 1}, "Core": {"files": 1, "callers": 1},
                                "Tests": {"files": 1, "callers": 1, "tests": 2}}
    assert data["endpoints"] == [{"endpoint": "GET /api/quote/{id:int}", "handler": S_QUOTE}]
    assert [t["test"] for t in data["tests"]] == [S_PLACE_WORKS, S_API_WORKS]


def test_impact_of_an_implementation_warns_about_the_member_it_implements(first_only: Call) -> None:
    out = first_only("impact_analyze", symbol_id=CALC_COMPUTE, depth=1)
    assert out["data"]["implements"] == [S_COMPUTE]
    assert f"It implements or overrides {S_COMPUTE}: a signature change must change it too." in out["warnings"]


def test_unused_lists_dead_code_and_counts_each_exclusion(first_only: Call) -> None:
    out = first_only("symbols_unused")
    assert out["ok"], out
    assert out["data"]["unused"] == [
        {"symbol_id": "M:Service.Old", "kind": "Method", "file": "src/Core/Pricing.cs", "line": 22,
         "project": "Core"}]
    assert {k: v["count"] for k, v in out["data"]["excluded"].items()} == {
        "dispatch": 2, "framework_entry": 2, "serialization": 1, "test": 4}
    assert out["answer"] == ("1 symbols have no reference in the solution; 9 more without references were left "
                             "out as entry points or reflection.")


def test_unused_filters_by_project_and_kind(first_only: Call) -> None:
    assert first_only("symbols_unused", project="App")["data"]["unused"] == []
    assert first_only("symbols_unused", kinds=["Class"])["data"]["unused"] == []
    bad = first_only("symbols_unused", project="Nope")
    assert bad["error"]["code"] == "NOT_FOUND" and bad["error"]["hint"] == "Projects: App, Core, Tests."


def test_projects_graph_lists_references_both_ways_and_flags_package_versions(first_only: Call) -> None:
    out = first_only("projects_graph")
    assert out["answer"] == "3 projects, 3 project references, 2 packages (1 at several versions: Dapper)."
    by_name = {p["project"]: p for p in out["data"]["projects"]}
    assert by_name["Core"]["referenced_by"] == ["App", "Tests"]
    assert by_name["Tests"]["references"] == ["App", "Core"]
    assert by_name["App"]["output_kind"] == "Exe"
    assert by_name["Tests"]["packages"] == [{"name": "xunit", "version": "2.9.3", "requested": "[2.9.3, )"}]
    assert out["data"]["packages"][0] == {"name": "Dapper", "projects": ["App", "Core"],
                                          "versions": ["2.1.66", "2.1.35"], "conflict": True}


def test_diff_between_two_baselines(review: Call, commits: tuple[RepoInfo, RepoInfo]) -> None:
    out = review("diff_semantic", base_commit=commits[0].commit[:10])
    assert out["ok"], out
    assert out["answer"] == (f"{commits[0].commit[:12]} → {commits[1].commit[:20]}: 1 symbols added, 1 removed, "
                             "1 signatures changed; endpoints: +1 -0; config_keys: +0 -1.")
    changed = out["data"]["symbols"][0]
    assert (changed["change"], changed["symbol_id"], changed["symbol_id_before"], changed["before"],
            changed["signature"]) == ("signature_changed", "M:Service.Place(Int32,Boolean)", S_PLACE,
                                      "public int Service.Place(int quantity)",
                                      "public int Service.Place(int quantity, bool rush)")
    assert [(i["change"], i["symbol_id"]) for i in out["data"]["symbols"][1:]] == [
        ("removed", "M:Service.Old"), ("added", "M:Service.New")]
    assert out["data"]["surfaces"] == {
        "endpoints": {"added": [{"key": "POST /api/quote", "file": "src/App/Endpoints.cs", "line": 4}], "removed": []},
        "config_keys": {"added": [], "removed": [{"key": "Pricing:Rate", "file": "src/App/Endpoints.cs", "line": 6}]}}


def test_diff_needs_something_to_compare(review: Call) -> None:
    out = review("diff_semantic")
    assert out["error"]["code"] == "INVALID_ARGUMENT"
    missing = review("diff_semantic", base_commit="ffff")
    assert missing["error"]["code"] == "NOT_FOUND" and missing["error"]["message"] == "No baseline for commit 'ffff'."


def test_tests_of_a_type_come_through_its_members(first_only: Call) -> None:
    out = first_only("tests_find", symbol_id="T:Core.Service")
    assert [(t["test"], t["depth"], t.get("via")) for t in out["data"]["tests"]] == [
        (S_PLACE_WORKS, 1, None), (S_API_WORKS, 2, [S_QUOTE])]


def test_http_call_paths_are_matched_as_concrete_paths() -> None:
    from roslynmap.query.httpcalls import call_path

    assert [call_path(k) for k in ("/api/quote/5", "api/quote/{id}?rush=true", "http://localhost:5000/api/quote/7",
                                    "https://host")] == ["/api/quote/5", "/api/quote/{x}", "/api/quote/7", "/"]


def test_dapr_invoke_urls_call_the_path_after_method_and_dotted_hosts_are_other_systems() -> None:
    from roslynmap.query.httpcalls import call_path, may_be_served_here

    assert [call_path(k) for k in ("http://localhost:3500/v1.0/invoke/orders/method/api/orders/{id}",
                                    "http://localhost:3500/v1.0/invoke/orders/method")] == ["/api/orders/{x}", "/"]
    assert [may_be_served_here(k) for k in ("api/x", "http://localhost:5000/x", "http://catalog-api/x",
                                            "http://127.0.0.1:80/x", "https://api.github.com/x")] == [
        True, True, True, True, False]
