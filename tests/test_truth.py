"""Issue 11, truthful on real repositories: the target framework that binds, the semantic level from
evidence, restore state where MSBuild puts it, rejected candidates kept unresolved, and framework or
package members as first-class targets. Two fixtures, each indexed once per module:

- testdata/MultiTarget (never restored): Lib targets net46;net10.0, and this SDK has no net46 reference
  assemblies; App calls Lib, three times in ways the compiler rejects (ambiguous, inaccessible, no
  applicable overload).
- testdata/Packaged (restored, UseArtifactsOutput): Store inherits EF Core's DbContext and calls its
  members; Reports asks for a Dapper version the feed lacks (restore substitutes one, NU1603).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import inspect_repo

from tests.conftest import roslynmap
from tests.mcp_client import McpServerProcess
from tests.repos import GIT_ENV, TESTDATA, make_repo

SAVE_ASYNC = "M:Microsoft.EntityFrameworkCore.DbContext.SaveChangesAsync(System.Threading.CancellationToken)"
NET46_SKIPPED = {"framework": "net46",
                 "reason": "its core library does not resolve (no reference assemblies for net46 here)"}


def index(repo: Path, home: Path, *args: str) -> tuple[int, dict[str, Any]]:
    done = roslynmap("index", str(repo), "--json", *args, env={"ROSLYNMAP_HOME": str(home)})
    return done.returncode, json.loads(done.stdout)


def baseline(repo: Path, home: Path) -> sqlite3.Connection:
    info = inspect_repo(repo)
    old = os.environ.get("ROSLYNMAP_HOME")
    os.environ["ROSLYNMAP_HOME"] = str(home)
    try:
        return sqlite3.connect(baseline_path(info.repo_id, info.commit))
    finally:
        if old is not None:
            os.environ["ROSLYNMAP_HOME"] = old


@pytest.fixture(scope="module")
def multi(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any]]:
    root = tmp_path_factory.mktemp("multi")
    repo = make_repo(TESTDATA / "MultiTarget", root / "MultiTarget", restore=False)
    code, summary = index(repo, root / "home")
    assert code == 0, summary
    return repo, root / "home", summary


@pytest.fixture(scope="module")
def packaged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any]]:
    root = tmp_path_factory.mktemp("packaged")
    repo = make_repo(TESTDATA / "Packaged", root / "Packaged")
    code, summary = index(repo, root / "home")
    assert code == 0, summary
    return repo, root / "home", summary


@pytest.fixture(scope="module")
def packaged_server(packaged: tuple[Path, Path, dict[str, Any]]) -> Iterator[McpServerProcess]:
    repo, home, _ = packaged
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)})
    yield server
    server.close()


# ------------------------------------------------------------------ target framework


def test_multi_targeted_project_is_indexed_for_the_framework_that_binds(multi: Any) -> None:
    _, _, summary = multi
    projects = {p["name"]: p for p in summary["projects"]}
    lib = projects["Lib"]
    assert (lib["target_framework"], lib["target_frameworks"], lib["framework_choice"]) == (
        "net10.0", ["net46", "net10.0"], "auto")
    assert lib["skipped_frameworks"] == [NET46_SKIPPED]
    assert lib["note"] == "multi-targeted ['net46', 'net10.0']; indexed for net10.0 (chosen automatically)"
    assert (lib["semantic_level"], lib["error_count"], lib["bound_share"]) == ("full", 0, 1.0)
    assert "target_frameworks" not in projects["App"]  # single-targeted: nothing to say


def test_calls_into_the_multi_targeted_project_resolve_exactly(multi: Any) -> None:
    repo, home, _ = multi
    db = baseline(repo, home)
    calls = db.execute(
        "SELECT i.symbol_id, r.line FROM refs r JOIN ids i ON i.key = r.target_key"
        " WHERE r.kind = 'Call' AND i.symbol_id LIKE 'M:Lib.%' ORDER BY r.line").fetchall()
    # The rejected calls of lines 21-23 are not among them.
    assert calls == [("M:Lib.Formatter.Format(System.Object)", 9),
                     ("M:Lib.Formatter.Format(System.String,System.Int32)", 10),
                     ("M:Lib.Formatter.Describe(System.String)", 11),
                     ("M:Lib.Formatter.Describe(System.Uri)", 12)]


def test_rejected_candidates_are_unresolved_with_their_ids(multi: Any) -> None:
    repo, home, _ = multi
    rows = baseline(repo, home).execute(
        "SELECT target_name, kind, line, col, receiver, candidates FROM refs WHERE target_key IS NULL"
        " ORDER BY line").fetchall()
    assert rows == [
        ("Describe", "Call", 21, 37, "Formatter",
         '["M:Lib.Formatter.Describe(System.String)","M:Lib.Formatter.Describe(System.Uri)"]'),  # CS0121
        ("Secret", "Call", 22, 37, "Formatter", '["M:Lib.Formatter.Secret"]'),  # CS0122
        ("Format", "Call", 23, 37, "Formatter",
         '["M:Lib.Formatter.Format(System.Object)","M:Lib.Formatter.Format(System.String,System.Int32)"]'),
    ]


def test_code_for_another_framework_is_named_not_lost(multi: Any) -> None:
    """Newtonsoft.Json's LinqBridge.cs (3,000 lines under `#if !HAVE_LINQ`) outlined as declaring nothing: code under
    a branch the indexed build leaves out is no symbol, but the outline names what it declares, an empty search
    points at it, and a text match in it says so (testdata/MultiTarget Lib/Legacy.cs, indexed for net10.0)."""
    repo, home, _ = multi
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)})
    try:
        outline = server.call("code_outline", {"file_path": "src/Lib/Legacy.cs"})
        search = server.call("symbols_search", {"query": "LegacyDebug"})
        text = server.call("code_search_text", {"pattern": "Reset"})
    finally:
        server.close()
    assert outline["answer"] == ("src/Lib/Legacy.cs declares 2 types and 1 member. 3 regions inactive in the indexed "
                                 "build (#if NET46, ...) declare 4 more, not indexed (inactive).")
    assert outline["data"]["inactive"] == [
        {"line": 6, "end_line": 9, "condition": "#if NET46",
         "declares": ["class LegacyEnumerable:6", "method LegacyEnumerable.Reset:8"]},
        # `#elif NET46` is taken when NET46 is defined and DEBUG too (the first branch wants !DEBUG)
        {"line": 20, "end_line": 20, "condition": "#if NET46 && !DEBUG", "declares": ["method Clock.Legacy:20"]},
        {"line": 22, "end_line": 22, "condition": "#elif NET46", "declares": ["method Clock.LegacyDebug:22"]}]
    assert [d["symbol_id"] for d in outline["data"]["declarations"]] == [
        "T:Lib.ModernEnumerable", "M:Lib.ModernEnumerable.Reset", "T:Lib.Clock"]
    assert search["answer"] == "No symbols match 'LegacyDebug'."
    assert search["hint"] == ("Declared only in code inactive in the indexed build: method Clock.LegacyDebug at "
                              "src/Lib/Legacy.cs:22 (#elif NET46). code_outline(file_path=...) lists it; code_get_span "
                              "reads it.")
    assert [(m["line"], m.get("inactive")) for m in text["data"]["matches"]] == [(8, "#if NET46"), (13, None)]


POLLY_TRACE = ("System.InvalidOperationException: open\n"
               "   at Lib.Registry`1.GetOrAdd(TKey key, Action`2 configure)\n"
               "   at Lib.CircuitOpenException..ctor(SerializationInfo info, StreamingContext context)"
               " in /ci/src/Lib/Failures.cs:line 21\n"
               "   at Lib.CircuitOpenException..ctor(SerializationInfo info, StreamingContext context)\n")


def test_a_stack_frame_is_matched_by_its_parameter_types(multi: Any) -> None:
    """Polly: `GetOrAddPipeline(TKey key, Action`2 configure)` resolved to the `Action<Builder>` overload (the type
    arguments were ignored), and a net462 trace's serialization constructor, inactive in the indexed build, to the
    `(String, TimeSpan)` one with nothing said. A `[Serializable]` alone under `#if` declared the class."""
    repo, home, _ = multi
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)})
    try:
        frames = server.call("stacktrace_resolve", {"stack_trace": POLLY_TRACE})["data"]["frames"]
        outline = server.call("code_outline", {"file_path": "src/Lib/Failures.cs"})
    finally:
        server.close()
    registry = "M:Lib.Registry`1.GetOrAdd(`0,System.Action{Lib.Builder,Lib.Context{`0}})"
    assert [(f["symbol_id"], f["line"], f["matched_by"], f.get("parameters_differ"), f.get("inactive"),
             f.get("other_candidates")) for f in frames] == [
        (registry, 34, "name", None, None, None),
        # The line is in the inactive constructor: the type holds it, and the answer says why no member matched.
        ("T:Lib.CircuitOpenException", 21, "line", True, "#if NET46", None),
        # No line: the one constructor by name, saying its parameters differ and where the inactive one is.
        ("M:Lib.CircuitOpenException.#ctor(System.String,System.TimeSpan)", 15, "name", True,
         "#if NET46 (src/Lib/Failures.cs:20)", None)]
    assert outline["data"]["inactive"] == [
        {"line": 3, "end_line": 3, "condition": "#if NET46", "declares": []},
        {"line": 11, "end_line": 11, "condition": "#if NET46", "declares": []},  # `[Serializable]` alone
        {"line": 20, "end_line": 22, "condition": "#if NET46",
         "declares": ["constructor CircuitOpenException.CircuitOpenException:20"]}]


def test_level_evidence_of_an_unrestored_solution_without_packages(multi: Any) -> None:
    """No package references and no project.assets.json: full, and the evidence says why."""
    _, _, summary = multi
    assert summary["semantic_level"] == "full"
    assert summary["level_evidence"] == {
        "bound_share": 0.94, "resolved_references": 47, "unresolved_references": 3,
        "missing_reference_errors": 0, "projects_by_level": {"full": 2, "partial": 0, "syntax_only": 0}}
    app = next(p for p in summary["projects"] if p["name"] == "App")
    assert (app["semantic_level"], app["restored"], app["error_count"], app["missing_reference_errors"],
            app["resolved_references"], app["unresolved_references"], app["bound_share"]) == (
        "full", False, 3, 0, 33, 3, 0.9167)
    assert app["level_reason"] == "compiled without missing-reference errors"
    assert "hint" not in app  # restoring would change nothing


def test_framework_argument_and_config_pick_the_framework(multi: Any, tmp_path: Path) -> None:
    repo, home, _ = multi
    code, summary = index(repo, home, "--framework", "net46")
    assert code == 2  # net46 cannot be bound here: the user asked for it, the level says so
    assert summary["built"] is True
    assert summary["warnings"] == ["The baseline for HEAD was built for the default frameworks; rebuilt for net46."]
    lib = next(p for p in summary["projects"] if p["name"] == "Lib")
    assert (lib["target_framework"], lib["framework_choice"], lib["semantic_level"]) == (
        "net46", "requested", "syntax_only")
    assert lib["level_reason"] == "no metadata references were loaded"  # not even mscorlib
    assert lib["skipped_frameworks"] == [{"framework": "net10.0",
                                          "reason": "not the requested framework (argument: net46)"}]
    assert summary["semantic_level"] == "partial"

    # roslynmap.json at the root: per project (in a copy of its own: the module's repo stays as it is).
    repo = make_repo(TESTDATA / "MultiTarget", tmp_path / "MultiTarget", restore=False)
    (repo / "roslynmap.json").write_text(json.dumps({"frameworks": {"Lib": "net46"}}))
    subprocess.run(["git", "add", "roslynmap.json"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "config"], cwd=repo, check=True, env={**os.environ, **GIT_ENV})
    code, summary = index(repo, tmp_path / "home")
    lib = next(p for p in summary["projects"] if p["name"] == "Lib")
    assert (lib["target_framework"], lib["framework_choice"]) == ("net46", "requested")
    assert lib["skipped_frameworks"] == [{"framework": "net10.0",
                                          "reason": "not the requested framework (roslynmap.json: net46)"}]
    # the command line beats the file
    code, summary = index(repo, tmp_path / "home", "--framework", "net10.0")
    lib = next(p for p in summary["projects"] if p["name"] == "Lib")
    assert (code, lib["target_framework"], lib["semantic_level"]) == (0, "net10.0", "full")
    assert lib["skipped_frameworks"] == [{"framework": "net46", "reason":
                                          "not the requested framework (roslynmap.json + argument: net10.0)"}]


# ------------------------------------------------------------------ restore state, NuGet warnings


def test_artifacts_output_is_seen_as_restored(packaged: Any) -> None:
    _, _, summary = packaged
    projects = {p["name"]: p for p in summary["projects"]}
    assert {n: (p["restored"], p["assets_file"]) for n, p in projects.items()} == {
        "Store": (True, "src/artifacts/obj/Store/project.assets.json"),
        "Reports": (True, "src/artifacts/obj/Reports/project.assets.json")}
    # generated files under artifacts/obj (AssemblyInfo, GlobalUsings) are not indexed
    assert summary["counts"]["files"] == 4  # OrderService.cs, StoreContext.cs, Caching.cs, OrderReport.cs


def test_a_nuget_substitution_warning_changes_no_level(packaged: Any) -> None:
    _, _, summary = packaged
    reports = next(p for p in summary["projects"] if p["name"] == "Reports")
    assert "Dapper 2.1.1 was not found. Dapper 2.1.66 was resolved instead." in reports["load_errors"][0]
    assert (reports["semantic_level"], reports["compiled"], reports["bound_share"]) == ("full", True, 1.0)
    assert summary["semantic_level"] == "full"
    assert summary["level_evidence"]["missing_reference_errors"] == 0


# ------------------------------------------------------------------ external members


def test_external_member_is_searchable(packaged_server: McpServerProcess) -> None:
    found = packaged_server.call("symbols_search", {"query": "SaveChangesAsync", "kinds": ["Method"]})
    assert found["data"]["results"] == [{
        "symbol_id": SAVE_ASYNC, "name": "SaveChangesAsync", "kind": "Method",
        "signature": "virtual Task<int> DbContext.SaveChangesAsync(CancellationToken cancellationToken = "
                     "default(CancellationToken))",
        "file": None, "line": None, "project": None, "external": True, "assembly": "Microsoft.EntityFrameworkCore"}]


def test_refs_and_callers_of_an_inherited_package_member(packaged_server: McpServerProcess) -> None:
    refs = packaged_server.call("refs_find", {"symbol_id": SAVE_ASYNC})
    assert refs["ok"], refs
    assert [(r["file"], r["line"], r["col"], r["kind"], r["from_symbol_id"]) for r in refs["data"]["references"]] == [
        ("src/Store/OrderService.cs", 10, 25, "Call", "M:Store.OrderService.Place(Store.Order)"),
        ("src/Store/OrderService.cs", 16, 19, "Call",
         "M:Store.OrderService.PlaceMany(System.Collections.Generic.IEnumerable{Store.Order},"
         "System.Threading.CancellationToken)")]
    callers = packaged_server.call("graph_callers", {"symbol_id": SAVE_ASYNC})
    assert sorted(n["symbol_id"] for n in callers["data"]["nodes"]) == [
        "M:Store.OrderService.Place(Store.Order)",
        "M:Store.OrderService.PlaceMany(System.Collections.Generic.IEnumerable{Store.Order},"
        "System.Threading.CancellationToken)"]
    sync = packaged_server.call("refs_find", {"symbol_id": "M:Microsoft.EntityFrameworkCore.DbContext.SaveChanges"})
    assert [(r["line"], r["from_symbol_id"]) for r in sync["data"]["references"]] == [
        (19, "M:Store.OrderService.Flush")]


def test_bound_aspire_client_integrations_read_their_connection_strings(packaged_server: McpServerProcess) -> None:
    """Aspire's keyed integrations name the connection `name` (aspire-samples' OrleansVoting:
    `AddKeyedRedisClient("voting-redis")`, whose connection string read `defined_but_unused`)."""
    env = packaged_server.call("surfaces_list_config_keys", {"key_filter": "ConnectionStrings"})
    assert [(k["key"], k["status"], [(u["pattern"], u["line"], u.get("confidence")) for u in k["usages"]])
            for k in env["data"]["keys"]] == [
        ("ConnectionStrings:cache", "used_but_undefined", [("connection_name", 11, None)]),
        ("ConnectionStrings:sessions", "used_but_undefined", [("connection_name", 12, None)])]


def test_card_of_an_external_member(packaged_server: McpServerProcess) -> None:
    card = packaged_server.call("symbols_get_card", {"symbol_id": SAVE_ASYNC})
    assert card["ok"], card
    data = card["data"]
    assert (data["external"], data["assembly"], data["containing_type"], data["references_by_kind"]) == (
        True, "Microsoft.EntityFrameworkCore", "T:Microsoft.EntityFrameworkCore.DbContext", {"Call": 2})
    assert card["answer"] == ("Method Microsoft.EntityFrameworkCore.DbContext.SaveChangesAsync is external (assembly "
                              "Microsoft.EntityFrameworkCore, no source here); the solution uses it: 2 Call.")
    # the package base type: the solution's types deriving from it
    hierarchy = packaged_server.call("types_hierarchy", {"symbol_id": "T:Microsoft.EntityFrameworkCore.DbContext"})
    assert [d["symbol_id"] for d in hierarchy["data"]["descendants"]] == ["T:Store.StoreContext"]


def test_status_and_ensure_over_mcp_show_evidence_and_take_a_framework(multi: Any, tmp_path: Path) -> None:
    """repo_status shows HEAD's level with its evidence; index_ensure_baseline takes `framework`."""
    repo, _, _ = multi
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(tmp_path / "home")})
    try:
        built = server.call("index_ensure_baseline", {"framework": "net46"})
        assert built["ok"], built
        lib = next(p for p in built["data"]["projects"] if p["name"] == "Lib")
        assert (lib["target_framework"], lib["framework_choice"], lib["semantic_level"]) == (
            "net46", "requested", "syntax_only")
        assert built["data"]["framework_request"] == {"argument": {"framework": "net46"}, "sources": ["argument"]}
        # Lib for net46: its references nearly all unbound, CS0518 (predefined type not defined)
        assert "; semantic level partial (64.4 % of 59 references bound, 56 missing-reference errors)." \
            in built["answer"]
        status = server.call("repo_status", {})
        head = status["data"]["head_baseline"]
        assert (head["semantic_level"], head["level_evidence"]["projects_by_level"]) == (
            "partial", {"full": 1, "partial": 0, "syntax_only": 1})
        projects = [(p["name"], p["semantic_level"], p["target_framework"], p["bound_share"]) for p in head["projects"]]
        # Lib's type parameters bind without a core library (5 of its 23 references)
        assert projects == [("App", "full", "net10.0", 0.9167), ("Lib", "syntax_only", "net46", 0.2174)]
        assert status["answer"].endswith("HEAD has a baseline (semantic level partial: 64.4 % of 59 references bound, "
                                         "56 missing-reference errors).")
    finally:
        server.close()

