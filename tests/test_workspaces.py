"""Workspaces over MCP: overlays of uncommitted edits, refreshed by the warm worker, isolated per workspace.

The module has its own indexed copy of testdata/Shop and its own server (other tests assert on the
shared `shop` repository). Every test restores the working tree when it ends.
"""

from __future__ import annotations

import hashlib
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import indexed_copy
from tests.mcp_client import McpServerProcess
from tests.repos import TESTDATA, make_repo

ORDER_SERVICE = "src/Shop.Services/OrderService.cs"
PRICING = "src/Shop.Services/PricingService.cs"
PROGRAM = "src/Shop.App/Program.cs"
EXTENSIONS = "src/Shop.Domain/OrderExtensions.cs"
CUSTOMER_REPO = "src/Shop.Infrastructure/CustomerRepository.cs"
PAY = "M:Shop.Services.OrderService.Pay(System.Guid)"
CANCEL = "M:Shop.Services.OrderService.Cancel(System.Guid)"
IS_LARGE = "M:Shop.Domain.OrderExtensions.IsLarge(Shop.Domain.Order)"
IS_LARGE_2 = "M:Shop.Domain.OrderExtensions.IsLarge(Shop.Domain.Order,System.Decimal)"
QUOTE = "M:Shop.Services.PricingService.Quote(System.Int32)"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    return indexed_copy("Shop", tmp_path_factory.mktemp("ws") / "ShopWs", home)


@pytest.fixture(scope="module")
def baseline_file(repo: Path, home: Path) -> Path:
    from roslynmap.store.repo import inspect_repo

    info = inspect_repo(repo)
    return home / "repos" / info.repo_id / "baselines" / f"{info.commit}.db"


@pytest.fixture(scope="module")
def baseline_sha(baseline_file: Path) -> str:
    return hashlib.sha256(baseline_file.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def ws(repo: Path, home: Path, baseline_sha: str, tmp_path_factory: pytest.TempPathFactory) -> \
        Iterator[McpServerProcess]:
    # the tests' other repositories live under the session's temp folder: allowed (docs/security.md)
    proc = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)},
                            ["--allow-root", str(tmp_path_factory.getbasetemp())])
    yield proc
    proc.close()


def edit(repo: Path, rel: str, old: str, new: str) -> None:
    path = repo / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@contextmanager
def restored(repo: Path) -> Iterator[None]:
    """The working tree back at the commit when the test ends, whatever happened."""
    try:
        yield
    finally:
        subprocess.run(["git", "checkout", "-q", "--", "."], cwd=repo, check=True)
        subprocess.run(["git", "clean", "-fdq", "--", "src"], cwd=repo, check=True)


def ok(env: dict[str, Any]) -> dict[str, Any]:
    assert env["ok"] is True, env.get("error")
    return env


def refs(env: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(r["file"], r["line"], r["kind"]) for r in ok(env)["data"]["references"]]


def search_ids(env: dict[str, Any]) -> list[str]:
    return [r["symbol_id"] for r in ok(env)["data"]["results"]]


def test_edit_refresh_finds_the_new_symbol_and_a_second_workspace_sees_none_of_it(
        ws: McpServerProcess, repo: Path) -> None:
    created = ok(ws.call("workspace_create", {"workspace_id": "edit"}))
    assert created["data"]["created"] is True and created["data"]["overlay_revision"] == 0
    assert ok(ws.call("workspace_create", {"workspace_id": "edit"}))["data"]["created"] is False  # idempotent
    ok(ws.call("workspace_create", {"workspace_id": "other"}))
    with restored(repo):
        edit(repo, PRICING, "    public void AddRule(", "    /// <summary>A quote.</summary>\n"
             "    public decimal Quote(int quantity) => quantity * 2m;\n\n    public void AddRule(")
        refreshed = ok(ws.call("index_refresh_overlay", {"workspace_id": "edit"}))
        data = refreshed["data"]
        assert (data["overlay_revision"], data["extracted"], data["rebound"]) == (1, [PRICING], [])
        assert data["changed_files"] == [{"path": PRICING, "state": "changed"}]
        assert data["cold_start"] is True and data["load_seconds"] > 0  # the module's first refresh
        assert refreshed["meta"]["workspace_id"] == "edit" and refreshed["meta"]["overlay_revision"] == 1

        found = ok(ws.call("symbols_search", {"query": "Quote", "workspace_id": "edit"}))
        assert search_ids(found) == [QUOTE]
        assert (found["meta"]["workspace_id"], found["meta"]["overlay_revision"]) == ("edit", 1)
        assert found["meta"]["semantic_level"] == "full"
        card = ok(ws.call("symbols_get_card", {"symbol_id": QUOTE, "workspace_id": "edit"}))["data"]
        assert (card["signature"], card["doc"], card["location"]) == (
            "public decimal Quote(int quantity)", "A quote.",
            {"file": PRICING, "line": 11, "col": 20, "end_line": 11})
        # The rest of the edited file moved down two lines in the workspace only.
        price = "M:Shop.Services.PricingService.Price(Shop.Domain.Order,Shop.Domain.Discount)"
        assert ok(ws.call("symbols_get_card", {"symbol_id": price, "workspace_id": "edit"}))["data"][
            "location"]["line"] == 16
        assert ok(ws.call("symbols_get_card", {"symbol_id": price}))["data"]["location"]["line"] == 13

        assert search_ids(ws.call("symbols_search", {"query": "Quote"})) == []
        assert search_ids(ws.call("symbols_search", {"query": "Quote", "workspace_id": "other"})) == []
        other = ws.call("symbols_get_card", {"symbol_id": QUOTE, "workspace_id": "other"})
        assert other["error"]["code"] == "NOT_FOUND" and other["meta"]["workspace_id"] == "other"
        committed = ws.call("symbols_get_card", {"symbol_id": QUOTE, "workspace_id": "edit",
                                                 "consistency": "committed"})
        assert committed["error"]["code"] == "NOT_FOUND"


def test_deleted_method_and_file_are_gone_only_in_the_workspace(ws: McpServerProcess, repo: Path) -> None:
    ok(ws.call("workspace_create", {"workspace_id": "delete"}))
    repository = "T:Shop.Domain.Repository`1"
    derived = [d["symbol_id"] for d in ok(ws.call("types_hierarchy", {"symbol_id": repository}))["data"][
        "descendants"]]
    assert "T:Shop.Infrastructure.CustomerRepository" in derived
    with restored(repo):
        edit(repo, ORDER_SERVICE, "    /// <summary>Deletes an order; false when it did not exist.</summary>\n"
             "    public bool Cancel(Guid id) => _repository.Delete(id);\n", "")
        (repo / CUSTOMER_REPO).unlink()
        data = ok(ws.call("index_refresh_overlay", {"workspace_id": "delete"}))["data"]
        assert data["changed_files"] == [{"path": CUSTOMER_REPO, "state": "deleted"},
                                         {"path": ORDER_SERVICE, "state": "changed"}]
        assert (data["extracted"], data["deleted"]) == ([ORDER_SERVICE], [CUSTOMER_REPO])

        gone = ws.call("symbols_get_card", {"symbol_id": CANCEL, "workspace_id": "delete"})
        assert gone["error"]["code"] == "NOT_FOUND"
        assert ok(ws.call("symbols_get_card", {"symbol_id": CANCEL}))["data"]["location"]["file"] == ORDER_SERVICE
        delete_ref = "M:Shop.Domain.IOrderRepository.Delete(System.Guid)"
        assert refs(ws.call("refs_find", {"symbol_id": delete_ref, "workspace_id": "delete", "kind": "Call"})) == []
        assert refs(ws.call("refs_find", {"symbol_id": delete_ref, "kind": "Call"})) == [(ORDER_SERVICE, 44, "Call")]
        assert search_ids(ws.call("symbols_search", {"query": "FindByName", "workspace_id": "delete"})) == []
        derived_ws = [d["symbol_id"] for d in ok(ws.call("types_hierarchy", {
            "symbol_id": repository, "workspace_id": "delete"}))["data"]["descendants"]]
        assert derived_ws == [d for d in derived if d != "T:Shop.Infrastructure.CustomerRepository"]


def test_reference_counts_follow_the_edit(ws: McpServerProcess, repo: Path) -> None:
    ok(ws.call("workspace_create", {"workspace_id": "calls"}))
    before = refs(ws.call("refs_find", {"symbol_id": PAY}))
    assert before == [(PROGRAM, 16, "Call")]
    with restored(repo):
        edit(repo, PROGRAM, "service.Pay(first.Id);\n", "service.Pay(first.Id);\nservice.Pay(second.Id);\n")
        ok(ws.call("index_refresh_overlay", {"workspace_id": "calls"}))
        in_ws = ws.call("refs_find", {"symbol_id": PAY, "workspace_id": "calls"})
        assert refs(in_ws) == [(PROGRAM, 16, "Call"), (PROGRAM, 17, "Call")]
        assert refs(ws.call("refs_find", {"symbol_id": PAY})) == before
        callers = ok(ws.call("graph_callers", {"symbol_id": PAY, "workspace_id": "calls"}))["data"]["nodes"]
        assert [(n["symbol_id"], [e["count"] for e in n["edges"]]) for n in callers] == [
            ("M:Program.<Main>$(System.String[])", [2])]


def test_signature_change_rebinds_references_in_other_files(ws: McpServerProcess, repo: Path) -> None:
    ok(ws.call("workspace_create", {"workspace_id": "signature"}))
    with restored(repo):
        edit(repo, EXTENSIONS, "IsLarge(this Order o) => o.Total >= ShopConstants.LargeOrderThreshold;",
             "IsLarge(this Order o, decimal threshold = 1000m) => o.Total >= threshold;")
        data = ok(ws.call("index_refresh_overlay", {"workspace_id": "signature"}))["data"]
        assert (data["extracted"], data["rebound"]) == ([PROGRAM, EXTENSIONS], [PROGRAM])
        assert refs(ws.call("refs_find", {"symbol_id": IS_LARGE_2, "workspace_id": "signature"})) == [
            (PROGRAM, 11, "Call"), (PROGRAM, 34, "Call")]
        old = ws.call("refs_find", {"symbol_id": IS_LARGE, "workspace_id": "signature"})
        assert old["error"]["code"] == "NOT_FOUND"
        assert refs(ws.call("refs_find", {"symbol_id": IS_LARGE})) == [(PROGRAM, 11, "Call"), (PROGRAM, 34, "Call")]
        # The constant lost its reader in the workspace only.
        threshold = "F:Shop.Domain.ShopConstants.LargeOrderThreshold"
        assert refs(ws.call("refs_find", {"symbol_id": threshold, "workspace_id": "signature"})) == []
        assert refs(ws.call("refs_find", {"symbol_id": threshold})) == [(EXTENSIONS, 7, "Read")]


def test_diagnostics_say_what_an_edit_broke_and_flag_broken_callers(ws: McpServerProcess, repo: Path) -> None:
    """IsLarge returns int instead of bool: Program.cs:11 (`order.IsLarge() ? ...`) no longer compiles, while
    Program.cs:34 (`{first.IsLarge()}` in an interpolation) still does. The call sites still bind, so only
    the diagnostics of the rebound file tell a broken caller from a normal one."""
    ok(ws.call("workspace_create", {"workspace_id": "broken"}))
    baseline = ok(ws.call("diagnostics_list", {"severity": "error"}))
    assert baseline["answer"] == "0 errors, 0 warnings matching the filters."
    with restored(repo):
        edit(repo, EXTENSIONS, "static bool IsLarge(this Order o) => o.Total >= ShopConstants.LargeOrderThreshold",
             "static int IsLarge(this Order o) => o.Total >= ShopConstants.LargeOrderThreshold ? 1 : 0")
        refreshed = ok(ws.call("index_refresh_overlay", {"workspace_id": "broken"}))
        data = refreshed["data"]
        assert (data["extracted"], data["rebound"]) == ([PROGRAM, EXTENSIONS], [PROGRAM])
        # The refresh answers what the edit broke itself (no diagnostics_list call needed for a few errors).
        assert refreshed["answer"].endswith(" The edits introduced 1 error.")
        assert data["new_errors"] == [{"code": "CS0029", "message": "Cannot implicitly convert type 'int' to 'bool'",
                                       "file": PROGRAM, "line": 11, "col": 26}]
        assert "next_actions" not in refreshed
        new = ok(ws.call("diagnostics_list", {"workspace_id": "broken", "new_only": True}))
        assert new["answer"] == ("1 error, 0 warnings; the workspace's edits introduced 1 error, 0 warnings and "
                                 "fixed 0 diagnostics (listed: the new ones).")
        assert new["data"]["diagnostics"] == [
            {"severity": "error", "code": "CS0029", "message": "Cannot implicitly convert type 'int' to 'bool'",
             "file": PROGRAM, "line": 11, "col": 26, "project": "Shop.App"}]
        assert new["data"]["fixed"] == []
        found = ok(ws.call("refs_find", {"symbol_id": IS_LARGE, "workspace_id": "broken"}))
        # Line 34 compiles, but it is in the same member (the top-level statements) as line 11.
        assert [(r["line"], r.get("broken", False), r.get("in_broken_member", False))
                for r in found["data"]["references"]] == [(11, True, False), (34, False, True)]
        assert found["warnings"] == [
            "1 site shown here no longer compiles (broken: true) and 1 site is in a member that no longer compiles "
            f"(in_broken_member: true) in this workspace ({PROGRAM}): "
            "diagnostics_list(workspace_id=\"broken\", new_only=true) lists the errors."]
        callers = ok(ws.call("graph_callers", {"symbol_id": IS_LARGE, "workspace_id": "broken"}))["data"]["nodes"]
        assert [(n["symbol_id"], n.get("broken", False)) for n in callers] == [
            ("M:Program.<Main>$(System.String[])", True)]
        committed = ok(ws.call("refs_find", {"symbol_id": IS_LARGE}))  # the baseline: nothing is broken
        assert [sorted(r) for r in committed["data"]["references"]] == [
            ["col", "excerpt", "file", "from_symbol_id", "kind", "line"]] * 2


def test_a_more_specific_overload_rebinds_calls_in_other_files(ws: McpServerProcess, repo: Path) -> None:
    """Program.cs:15 passes a PercentageDiscount to WithDiscount(Order, Discount); a new overload taking a
    PercentageDiscount wins overload resolution there, though no referenced declaration changed."""
    ok(ws.call("workspace_create", {"workspace_id": "overload"}))
    general = "M:Shop.Domain.OrderExtensions.WithDiscount(Shop.Domain.Order,Shop.Domain.Discount)"
    specific = "M:Shop.Domain.OrderExtensions.WithDiscount(Shop.Domain.Order,Shop.Domain.PercentageDiscount)"
    with restored(repo):
        edit(repo, EXTENSIONS, "    /// <summary>Sums the totals",
             "    public static Order WithDiscount(this Order o, PercentageDiscount discount) => o;\n\n"
             "    /// <summary>Sums the totals")
        data = ok(ws.call("index_refresh_overlay", {"workspace_id": "overload"}))["data"]
        assert (data["extracted"], data["rebound"]) == ([PROGRAM, EXTENSIONS], [PROGRAM])
        assert refs(ws.call("refs_find", {"symbol_id": specific, "workspace_id": "overload"})) == [
            (PROGRAM, 15, "Call")]
        assert refs(ws.call("refs_find", {"symbol_id": general, "workspace_id": "overload"})) == []
        assert refs(ws.call("refs_find", {"symbol_id": general})) == [(PROGRAM, 15, "Call")]


def test_added_file_then_removed_again(ws: McpServerProcess, repo: Path) -> None:
    ok(ws.call("workspace_create", {"workspace_id": "added"}))
    coupon = "src/Shop.Domain/Coupon.cs"
    with restored(repo):
        (repo / coupon).write_text("namespace Shop.Domain;\n\n/// <summary>A discount code.</summary>\n"
                                   "public sealed record Coupon(string Code) : Discount\n{\n"
                                   "    public override decimal Apply(decimal total) => total - 1m;\n}\n")
        (repo / "scripts").mkdir()
        (repo / "scripts/Tool.cs").write_text("class Tool { }\n")  # in no project's folder
        env = ok(ws.call("index_refresh_overlay", {"workspace_id": "added"}))
        data = env["data"]
        assert data["changed_files"] == [{"path": "scripts/Tool.cs", "state": "added", "in_solution": False},
                                         {"path": coupon, "state": "added"}]
        assert data["extracted"] == [coupon]
        assert env["warnings"] == ["1 file(s) belong to no project of the solution and were not indexed: "
                                   "scripts/Tool.cs."]
        (repo / "scripts/Tool.cs").unlink()
        found = ok(ws.call("symbols_search", {"query": "Coupon", "workspace_id": "added", "kinds": "Record"}))
        assert [(r["symbol_id"], r["file"], r["line"], r["project"]) for r in found["data"]["results"]] == [
            ("T:Shop.Domain.Coupon", coupon, 4, "Shop.Domain")]
        derived = ok(ws.call("types_hierarchy", {"symbol_id": "T:Shop.Domain.Discount", "workspace_id": "added"}))
        assert "T:Shop.Domain.Coupon" in [d["symbol_id"] for d in derived["data"]["descendants"]]
        (repo / coupon).unlink()
        second = ok(ws.call("index_refresh_overlay", {"workspace_id": "added"}))["data"]
        assert (second["overlay_revision"], second["changed_files"], second["reverted"]) == (
            2, [], ["scripts/Tool.cs", coupon])
        assert search_ids(ws.call("symbols_search", {"query": "Coupon", "workspace_id": "added"})) == []


def test_stale_warning_after_an_edit_without_refresh(ws: McpServerProcess, repo: Path) -> None:
    ok(ws.call("workspace_create", {"workspace_id": "stale"}))
    with restored(repo):
        edit(repo, ORDER_SERVICE, "public void Dispose()", "public void Dispose2() { }\n    public void Dispose()")
        ok(ws.call("index_refresh_overlay", {"workspace_id": "stale"}))
        fresh = ok(ws.call("symbols_search", {"query": "Dispose2", "workspace_id": "stale"}))
        assert fresh.get("warnings", []) == []
        edit(repo, ORDER_SERVICE, "public void Dispose2() { }", "public void Dispose3() { }")
        stale = ok(ws.call("symbols_search", {"query": "Dispose2", "workspace_id": "stale"}))
        assert stale["warnings"] == [
            f"1 file(s) changed on disk since workspace 'stale' was last refreshed: {ORDER_SERVICE}; answers "
            "about them may be stale. Call index_refresh_overlay(workspace_id=\"stale\")."]
        ok(ws.call("index_refresh_overlay", {"workspace_id": "stale"}))
        again = ok(ws.call("symbols_search", {"query": "Dispose3", "workspace_id": "stale"}))
        assert again.get("warnings", []) == [] and len(search_ids(again)) == 1


def test_semantic_level_follows_the_edit(ws: McpServerProcess, repo: Path) -> None:
    ok(ws.call("workspace_create", {"workspace_id": "broken"}))
    with restored(repo):
        edit(repo, ORDER_SERVICE, "public void Dispose()",
             "public NoSuchType Broken() => null!;\n    public void Dispose()")
        env = ok(ws.call("index_refresh_overlay", {"workspace_id": "broken"}))
        assert (env["data"]["semantic_level"], env["meta"]["semantic_level"]) == ("partial", "partial")
        assert env["warning"].startswith("The workspace compiles at semantic level partial")
        search = ok(ws.call("symbols_search", {"query": "Broken", "workspace_id": "broken"}))
        assert search["meta"]["semantic_level"] == "partial" and search_ids(search) == [
            "M:Shop.Services.OrderService.Broken"]
        assert ok(ws.call("symbols_search", {"query": "Order"}))["meta"]["semantic_level"] == "full"
    # Reverted on disk: the refresh drops the file from the overlay and the level is full again.
    env = ok(ws.call("index_refresh_overlay", {"workspace_id": "broken"}))
    assert (env["data"]["reverted"], env["data"]["semantic_level"]) == ([ORDER_SERVICE], "full")


def test_ephemeral_virtual_files_serve_spans(ws: McpServerProcess, repo: Path) -> None:
    ok(ws.call("workspace_create", {"workspace_id": "ephemeral"}))
    virtual = {"src/Shop.Domain/Draft.cs": "namespace Shop.Domain;\n\npublic class Draft { }\n",
               PROGRAM: "// unsaved\nConsole.WriteLine(1);\n"}
    env = ok(ws.call("code_get_span", {"file_path": "src/Shop.Domain/Draft.cs", "workspace_id": "ephemeral",
                                       "consistency": "ephemeral", "virtual_files": virtual}))
    assert env["data"]["lines"] == [{"line": 1, "text": "namespace Shop.Domain;"}, {"line": 2, "text": ""},
                                    {"line": 3, "text": "public class Draft { }"}]
    assert (env["meta"]["workspace_id"], env["meta"]["consistency"]) == ("ephemeral", "ephemeral")
    program = ok(ws.call("code_get_span", {"file_path": PROGRAM, "workspace_id": "ephemeral",
                                           "virtual_files": virtual, "max_lines": 1}))
    assert program["data"]["lines"] == [{"line": 1, "text": "// unsaved"}]
    on_disk = ok(ws.call("code_get_span", {"file_path": PROGRAM, "max_lines": 1}))
    assert on_disk["data"]["lines"] == [{"line": 1, "text": "using Shop.Domain;"}]
    assert not (repo / "src/Shop.Domain/Draft.cs").exists()  # nothing persisted
    resolved = ok(ws.call("symbols_resolve", {"file_path": "src/Shop.Domain/Draft.cs", "line": 3,
                                              "workspace_id": "ephemeral", "consistency": "ephemeral",
                                              "virtual_files": virtual}))["data"]
    assert (resolved["symbol_id"], resolved["in_index"]) == ("T:Shop.Domain.Draft", False)


def test_errors_unknown_invalid_required_and_no_baseline(ws: McpServerProcess, tmp_path: Path, home: Path) -> None:
    existing = [w["workspace_id"] for w in ok(ws.call("workspace_list"))["data"]["workspaces"]]
    assert existing == sorted(existing) and "edit" in existing
    for tool, args in (("symbols_search", {"query": "Order"}), ("index_refresh_overlay", {}),
                       ("workspace_reset", {}), ("refs_find", {"symbol_id": PAY})):
        env = ws.call(tool, {**args, "workspace_id": "nope"})
        assert env["error"]["code"] == "WORKSPACE_NOT_FOUND", tool
        assert env["error"]["candidates"] == [{"workspace_id": w} for w in existing[:10]]
    bad = ws.call("workspace_create", {"workspace_id": "../escape"})
    assert bad["error"]["code"] == "INVALID_ARGUMENT"
    assert ws.call("symbols_search", {"query": "Order", "workspace_id": "a b"})["error"]["code"] == "INVALID_ARGUMENT"
    required = ws.call("code_get_span", {"file_path": PROGRAM, "consistency": "ephemeral"})
    assert required["error"]["code"] == "WORKSPACE_REQUIRED"
    assert ws.call("symbols_search", {"query": "Order", "virtual_files": {PROGRAM: ""}})["error"]["code"] == \
        "WORKSPACE_REQUIRED"
    unindexed = make_repo(TESTDATA / "Shop", tmp_path / "Unindexed", restore=False)
    created = ok(ws.call("workspace_create", {"workspace_id": "w", "repo_path": str(unindexed)}))
    assert created["data"]["baseline_available"] is False
    refresh = ws.call("index_refresh_overlay", {"workspace_id": "w", "repo_path": str(unindexed)})
    assert (refresh["error"]["code"], refresh["error"]["retryable"]) == ("INDEX_NOT_AVAILABLE", True)


def test_reset_and_delete(ws: McpServerProcess, repo: Path) -> None:
    ok(ws.call("workspace_create", {"workspace_id": "scratch"}))
    with restored(repo):
        edit(repo, PRICING, "    public void AddRule(", "    public int Scratch() => 1;\n    public void AddRule(")
        ok(ws.call("index_refresh_overlay", {"workspace_id": "scratch"}))
        assert len(search_ids(ws.call("symbols_search", {"query": "Scratch", "workspace_id": "scratch"}))) == 1
        listed = {w["workspace_id"]: w for w in ok(ws.call("workspace_list"))["data"]["workspaces"]}
        entry = listed["scratch"]
        assert (entry["overlay_revision"], entry["changed_files"], entry["stale"], entry["semantic_level"]) == (
            1, [{"path": PRICING, "state": "changed"}], False, "full")
        assert entry["created_at"] and entry["refreshed_at"] and entry["last_used_at"]
        reset = ok(ws.call("workspace_reset", {"workspace_id": "scratch"}))
        assert (reset["data"]["overlay_revision"], reset["data"]["changed_files"]) == (2, [])
        assert search_ids(ws.call("symbols_search", {"query": "Scratch", "workspace_id": "scratch"})) == []
    deleted = ok(ws.call("workspace_delete", {"workspace_id": "scratch"}))
    assert "scratch" not in deleted["data"]["remaining"]
    assert "scratch" not in [w["workspace_id"] for w in ok(ws.call("workspace_list"))["data"]["workspaces"]]
    gone = ws.call("symbols_search", {"query": "Order", "workspace_id": "scratch"})
    assert gone["error"]["code"] == "WORKSPACE_NOT_FOUND"


def test_two_workspaces_refresh_concurrently(ws: McpServerProcess, repo: Path) -> None:
    for name in ("left", "right"):
        ok(ws.call("workspace_create", {"workspace_id": name}))
    with restored(repo):
        edit(repo, PRICING, "    public void AddRule(", "    public int LeftOnly() => 1;\n    public void AddRule(")
        edit(repo, ORDER_SERVICE, "    public void Dispose()",
             "    public int RightOnly() => 2;\n    public void Dispose()")
        results: dict[str, dict[str, Any]] = {}

        def run(name: str, path: str) -> None:
            results[name] = ws.call("index_refresh_overlay", {"workspace_id": name, "file_paths": [path]})

        threads = [threading.Thread(target=run, args=("left", PRICING)),
                   threading.Thread(target=run, args=("right", ORDER_SERVICE))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        assert ok(results["left"])["data"]["changed_files"] == [{"path": PRICING, "state": "changed"}]
        assert ok(results["right"])["data"]["changed_files"] == [{"path": ORDER_SERVICE, "state": "changed"}]
        for name, mine, theirs in (("left", "LeftOnly", "RightOnly"), ("right", "RightOnly", "LeftOnly")):
            assert len(search_ids(ws.call("symbols_search", {"query": mine, "workspace_id": name}))) == 1, name
            assert search_ids(ws.call("symbols_search", {"query": theirs, "workspace_id": name})) == [], name


def test_head_moved_marks_workspaces_stale(ws: McpServerProcess, repo: Path) -> None:
    ok(ws.call("workspace_create", {"workspace_id": "moved"}))
    status = ok(ws.call("repo_status"))["data"]["workspaces"]
    assert {"workspace_id": "moved", "stale": False, "overlay_revision": 0, "changed_files": 0}.items() <= \
        next(w for w in status if w["workspace_id"] == "moved").items()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    with restored(repo):
        edit(repo, PRICING, "    public void AddRule(", "    public int Committed() => 1;\n    public void AddRule(")
        subprocess.run([*git, "commit", "-qam", "moved"], cwd=repo, check=True)
        try:
            head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True,
                                  text=True).stdout.strip()
            listed = {w["workspace_id"]: w for w in ok(ws.call("workspace_list"))["data"]["workspaces"]}
            assert listed["moved"]["stale"] is True and listed["moved"]["baseline_commit"] != head
            env = ok(ws.call("symbols_search", {"query": "Committed", "workspace_id": "moved"}))
            assert search_ids(env) == []  # the workspace stands on its baseline until refreshed
            assert any(w.startswith(f"HEAD moved to {head[:12]} since workspace 'moved'") for w in env["warnings"])
            # The committed edit differs from the workspace's baseline commit: a refresh picks it up.
            data = ok(ws.call("index_refresh_overlay", {"workspace_id": "moved"}))["data"]
            assert data["changed_files"] == [{"path": PRICING, "state": "changed"}]
            assert len(search_ids(ws.call("symbols_search", {"query": "Committed", "workspace_id": "moved"}))) == 1
            reset = ok(ws.call("workspace_reset", {"workspace_id": "moved"}))  # no baseline for the new HEAD
            assert reset["data"]["baseline_commit"] != head and reset["warnings"][0].startswith(
                f"HEAD {head[:12]} has no baseline yet")
        finally:
            subprocess.run(["git", "reset", "-q", "--hard", "HEAD~1"], cwd=repo, check=True)


def test_re_extracting_unchanged_files_reproduces_the_baseline(ws: McpServerProcess, repo: Path, home: Path,
                                                               baseline_file: Path) -> None:
    """The overlay path (bridge UpdateDocuments/ExtractDocuments, overlay writer, merged views) yields the
    very rows the index run stored, when every file is re-extracted unchanged."""
    import sqlite3

    from roslynmap.store.overlay import open_merged
    from roslynmap.workspace.overlays import overlay_path

    base = sqlite3.connect(f"file:{baseline_file}?mode=ro", uri=True)
    # Every file but the project files, whose rows only anchor ProjectReference facts (roslyn/projrefs.py).
    paths = sorted(row[0] for row in base.execute("SELECT path FROM files WHERE path NOT LIKE '%.csproj'"))
    ok(ws.call("workspace_create", {"workspace_id": "identity"}))
    data = ok(ws.call("index_refresh_overlay", {"workspace_id": "identity", "file_paths": paths}))["data"]
    assert data["extracted"] == paths
    overlay = overlay_path(baseline_file.parent.parent.name, "identity")
    merged = open_merged(baseline_file, overlay)
    queries = {
        "symbols": "SELECT s.symbol_id, s.stable_id, s.project_id, s.name, s.kind, s.fqn, s.signature, s.doc,"
                   " s.namespace, s.container_id, f.path, s.line, s.col, s.end_line, s.end_col, s.visibility,"
                   " s.is_static, s.arity FROM symbols s LEFT JOIN files f ON f.id = s.file_id",
        "symbol_parts": "SELECT sp.symbol_id, sp.project_id, f.path, sp.line, sp.col, sp.end_line FROM symbol_parts sp"
                        " LEFT JOIN files f ON f.id = sp.file_id",
        "refs": "SELECT t.symbol_id, r.target_name, r.target_kind, s.symbol_id, r.project_id, f.path, r.line, r.col,"
                " r.end_col, r.kind, r.receiver FROM refs r LEFT JOIN files f ON f.id = r.file_id"
                " LEFT JOIN ids t ON t.key = r.target_key LEFT JOIN ids s ON s.key = r.from_key",
        "relations": "SELECT x.type_id, x.related_id, x.related_name, x.kind, x.project_id, f.path FROM relations x"
                     " LEFT JOIN files f ON f.id = x.file_id",
        "facts": "SELECT x.kind, x.symbol_id, x.project_id, f.path, x.line, x.col, x.confidence, x.key, x.detail"
                 " FROM facts x LEFT JOIN files f ON f.id = x.file_id",
        "diagnostics": "SELECT x.project_id, f.path, x.line, x.col, x.severity, x.code, x.message FROM diagnostics x"
                       " LEFT JOIN files f ON f.id = x.file_id",
        "files": "SELECT path, project_id, line_count FROM files",
    }
    try:
        assert merged.execute("SELECT count(*) FROM main.symbols WHERE file_id NOT IN"
                              " (SELECT file_id FROM ov.overlay_files)").fetchone()[0] == 0  # all replaced
        for table, sql in queries.items():
            assert sorted(map(tuple, merged.execute(sql))) == sorted(map(tuple, base.execute(sql))), table
        fts = ok(ws.call("symbols_search", {"query": "Repository", "workspace_id": "identity", "limit": 100}))
        assert search_ids(fts) == search_ids(ws.call("symbols_search", {"query": "Repository", "limit": 100}))
    finally:
        merged.close()
        base.close()


def test_the_baseline_file_is_never_written(baseline_file: Path, baseline_sha: str) -> None:
    assert hashlib.sha256(baseline_file.read_bytes()).hexdigest() == baseline_sha


def test_a_rebuilt_baseline_invalidates_overlays_until_refreshed(tmp_path: Path, home: Path) -> None:
    """Overlays hold their baseline's file ids and symbol keys: after index_ensure_baseline(force=true)
    the workspace answers INDEX_NOT_AVAILABLE until refreshed, and the refresh starts over."""
    repo = indexed_copy("Shop", tmp_path / "ShopRebuilt", home)
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)})
    twice = "M:Shop.Services.PricingService.Twice(System.Int32)"

    def add_quote() -> None:
        edit(repo, PRICING, "    public void AddRule(", "    public decimal Quote(int quantity) => quantity * 2m;\n"
             "    public decimal Twice(int q) => Quote(q) + Quote(q);\n\n    public void AddRule(")

    try:
        ok(server.call("workspace_create", {"workspace_id": "rebuilt"}))
        with restored(repo):
            add_quote()
            assert ok(server.call("index_refresh_overlay", {"workspace_id": "rebuilt"}))["data"]["extracted"] == [
                PRICING]
        ok(server.call("index_ensure_baseline", {"force": True}))  # from the clean tree: a new build
        with restored(repo):
            add_quote()
            stale = server.call("refs_find", {"symbol_id": QUOTE, "workspace_id": "rebuilt"})
            assert stale["error"]["code"] == "INDEX_NOT_AVAILABLE"
            assert "rebuilt since" in stale["error"]["message"]
            assert stale["error"]["hint"] == 'Call index_refresh_overlay(workspace_id="rebuilt") to rebuild it.'
            data = ok(server.call("index_refresh_overlay", {"workspace_id": "rebuilt"}))["data"]
            assert (data["overlay_revision"], data["extracted"]) == (2, [PRICING])  # nothing carried over
            assert refs(server.call("refs_find", {"symbol_id": QUOTE, "workspace_id": "rebuilt"})) == [
                (PRICING, 11, "Call"), (PRICING, 11, "Call")]
            callers = ok(server.call("graph_callers", {"symbol_id": QUOTE, "workspace_id": "rebuilt"}))["data"]
            assert [(n["symbol_id"], n["edges"][0]["count"]) for n in callers["nodes"]] == [(twice, 2)]
            # Baseline symbols referenced from the re-extracted file keep the baseline's keys: the
            # workspace's references merge with the baseline's unchanged ones (Price moved down 3 lines).
            price = "M:Shop.Services.PricingService.Price(Shop.Domain.Order,Shop.Domain.Discount)"
            assert refs(server.call("refs_find", {"symbol_id": price, "workspace_id": "rebuilt"})) == [
                (line_file, line + 3 if line_file == PRICING else line, kind)
                for line_file, line, kind in refs(server.call("refs_find", {"symbol_id": price}))]
    finally:
        server.close()
