"""Indexing through the CLI and index_ensure_baseline: counts, honesty, bad input."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from roslynmap import __version__
from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import inspect_repo

from tests.conftest import roslynmap
from tests.mcp_client import McpServerProcess
from tests.repos import TESTDATA, make_repo

SHOP_PROJECTS = {
    # name: (symbols, references)
    "Shop.App": (1, 77),  # 76 + the ImplicitCall of `using var service` (OrderService.Dispose)
    "Shop.Domain": (81, 131),
    "Shop.Infrastructure": (39, 140),
    "Shop.Services": (14, 48),
}


def test_shop_index_counts_and_level(server: McpServerProcess) -> None:
    env = server.call("index_ensure_baseline", {})
    assert env["ok"] is True
    data = env["data"]
    assert data["built"] is False  # the session fixture built it through the CLI
    assert data["semantic_level"] == "full"
    # facts: 2 of the code, 1 framework throw helper (ThrowIfCancellationRequested), 6 calls on Repository<T>
    # of a solution entity and 1 of the generic PricingService.Best<T> (GenericCall), 6 project references.
    assert data["counts"] == {"symbols": 135, "references": 396, "files": 19, "unresolved_references": 0, "facts": 16,
                              "projects": 4}
    projects = {p["name"]: p for p in data["projects"]}
    assert {n: (p["symbol_count"], p["reference_count"]) for n, p in projects.items()} == SHOP_PROJECTS
    assert all(p["compiled"] and p["restored"] and p["target_framework"] == "net10.0" for p in projects.values())
    assert env["meta"]["semantic_level"] == "full"  # every answer names the level (DESIGN §7)
    assert env["answer"].startswith("Baseline already exists for ")


def test_symbol_kinds_stored(shop: Path, home: Path) -> None:
    info = inspect_repo(shop)
    db = baseline_path(info.repo_id, info.commit)
    kinds = dict(sqlite3.connect(db).execute("SELECT kind, count(*) FROM symbols GROUP BY kind"))
    assert kinds == {"Class": 18, "Constant": 4, "Constructor": 9, "Conversion": 1, "Delegate": 1, "Enum": 1,
                     "EnumMember": 3, "Event": 3, "Field": 13, "Indexer": 1, "Interface": 2, "Method": 49,
                     "Operator": 2, "Property": 26, "Record": 1, "RecordStruct": 1}
    refs = dict(sqlite3.connect(db).execute("SELECT kind, count(*) FROM refs GROUP BY kind"))
    assert refs == {"Call": 65, "Implementation": 22, "ImplicitCall": 1, "Instantiate": 56, "Override": 7,
                    "Read": 111, "TypeRef": 112, "Write": 22}


def test_broken_project_is_indexed_honestly(tmp_path: Path, home: Path) -> None:
    repo = make_repo(TESTDATA / "Broken", tmp_path / "Broken")
    done = roslynmap("index", str(repo), "--json", env={"ROSLYNMAP_HOME": str(home)})
    assert done.returncode == 2, done.stderr  # degraded
    summary = json.loads(done.stdout)
    assert summary["semantic_level"] == "partial"
    (project,) = summary["projects"]
    assert project["name"] == "Broken"
    assert project["compiled"] is False
    assert project["error_count"] == 5
    assert project["missing_reference_errors"] == 2
    assert [e.split(": ")[1] for e in project["first_errors"]] == ["CS0246", "CS1061", "CS0029", "CS0103", "CS0246"]
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)})
    try:
        card = server.call("symbols_get_card", {"symbol_id": "M:Broken.Survivor.Ok"})
        assert card["ok"] and card["data"]["location"] == {"file": "Survivor.cs", "line": 6, "col": 16,
                                                           "end_line": 6}
        assert card["meta"]["semantic_level"] == "partial"
        unresolved = server.call("refs_find", {"symbol_id": "M:Broken.Survivor.Ok"})
        assert [(r["file"], r["line"], r["kind"]) for r in unresolved["data"]["references"]] == [
            ("Survivor.cs", 9, "Call"), ("Survivor.cs", 9, "Call"), ("Wreck.cs", 23, "Call")]  # Ok() + Ok()
    finally:
        server.close()
    db = next(home.glob("repos/*broken*/baselines/*.db"))
    missing = sqlite3.connect(db).execute(
        "SELECT target_name, receiver, kind, line FROM refs WHERE target_key IS NULL AND target_name = 'Thing'"
    ).fetchall()
    assert missing == [("Thing", "Missing", "Call", 22)]


def test_not_restored_project_without_packages_is_full(tmp_path: Path, home: Path) -> None:
    """No package references: a missing project.assets.json alone changes no level (DESIGN §7)."""
    repo = make_repo(TESTDATA / "NotRestored", tmp_path / "NotRestored", restore=False)
    done = roslynmap("index", str(repo), "--json", env={"ROSLYNMAP_HOME": str(home)})
    summary = json.loads(done.stdout)
    assert done.returncode == 0
    (project,) = summary["projects"]
    assert (project["restored"], project["assets_file"]) == (False, "obj/project.assets.json")
    assert (project["semantic_level"], project["level_reason"]) == ("full", "compiled without missing-reference errors")
    assert "hint" not in project


def test_bad_repo_paths(tmp_path: Path, home: Path) -> None:
    env = {"ROSLYNMAP_HOME": str(home)}
    missing = roslynmap("index", str(tmp_path / "nope"), "--json", env=env)
    assert missing.returncode == 1
    assert json.loads(missing.stdout)["error"]["code"] == "INVALID_ARGUMENT"
    empty = tmp_path / "empty"
    (empty / "docs").mkdir(parents=True)
    (empty / "docs" / "readme.md").write_text("no code here")
    none = json.loads(roslynmap("index", str(empty), "--json", env=env).stdout)
    assert none["error"]["code"] == "NOT_FOUND"
    assert "No .slnx, .sln or .csproj" in none["error"]["message"]


def test_two_solutions_at_same_depth_are_ambiguous(tmp_path: Path, home: Path) -> None:
    repo = tmp_path / "two"
    repo.mkdir()
    for name in ("A.sln", "B.sln"):
        (repo / name).write_text("")
    out = json.loads(roslynmap("index", str(repo), "--json", env={"ROSLYNMAP_HOME": str(home)}).stdout)
    assert out["error"]["code"] == "AMBIGUOUS"
    assert out["error"]["candidates"] == [{"solution_path": "A.sln"}, {"solution_path": "B.sln"}]


def test_solution_that_fails_to_load(tmp_path: Path, home: Path) -> None:
    repo = tmp_path / "badsln"
    repo.mkdir()
    (repo / "Bad.slnx").write_text("<Solution><Project Path=\"missing/Missing.csproj\" /></Solution>")
    done = roslynmap("index", str(repo), "--json", env={"ROSLYNMAP_HOME": str(home)})
    out = json.loads(done.stdout)
    assert done.returncode == 1
    assert out["error"]["code"] == "COMPILATION_FAILED"
    assert "loaded no projects" in out["error"]["message"] and "Missing.csproj" in out["error"]["message"]
    assert not list(home.glob("repos/*badsln*/baselines/*.db"))  # nothing half-built is published


def test_index_over_mcp_keeps_stdio_clean(tmp_path: Path) -> None:
    """The server spawns the worker; MSBuild, Roslyn and .NET console output go to the worker log,
    so the JSON-RPC stream stays parseable through a full build and after it."""
    repo = make_repo(TESTDATA / "Broken", tmp_path / "Broken")
    home = tmp_path / "home"
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)})
    try:
        before = server.call("symbols_search", {"query": "Survivor"})
        assert before["error"]["code"] == "INDEX_NOT_AVAILABLE"
        built = server.call("index_ensure_baseline", {})
        assert built["ok"] and built["data"]["built"] is True
        assert built["data"]["semantic_level"] == "partial" and "warning" in built
        again = server.call("index_ensure_baseline", {})
        assert again["data"]["built"] is False
        found = server.call("symbols_search", {"query": "Survivor", "kinds": "Class"})
        assert [r["symbol_id"] for r in found["data"]["results"]] == ["T:Broken.Survivor"]
    finally:
        server.close()
    logs = list((home / "logs").glob("worker-*.log"))
    assert len(logs) == 1


def _indexed_with_meta(tmp_path: Path, key: str, value: str) -> tuple[Path, dict[str, str]]:
    """testdata/Broken indexed, then its baseline's meta `key` set to `value`, as an older roslynmap wrote it."""
    repo = make_repo(TESTDATA / "Broken", tmp_path / "Broken")
    env = {"ROSLYNMAP_HOME": str(tmp_path / "home")}
    assert roslynmap("index", str(repo), env=env).returncode == 2
    info = inspect_repo(repo)
    conn = sqlite3.connect(Path(env["ROSLYNMAP_HOME"]) / "repos" / info.repo_id / "baselines" / f"{info.commit}.db")
    conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
    conn.commit()
    conn.close()
    return repo, env


def test_baseline_of_an_older_schema_is_rebuilt(tmp_path: Path) -> None:
    repo, env = _indexed_with_meta(tmp_path, "schema_version", "1")
    done = roslynmap("index", str(repo), "--json", env=env)
    summary = json.loads(done.stdout)
    assert summary["built"] is True and summary["source"] == "built"
    assert any("schema version 1" in w and w.endswith("Rebuilt.") for w in summary["warnings"])


def test_baseline_of_another_roslynmap_version_is_rebuilt(tmp_path: Path) -> None:
    """Each version extracts something the last did not: after an upgrade the baseline for HEAD was reused as it was,
    answering as the old version did until `--force`."""
    repo, env = _indexed_with_meta(tmp_path, "roslynmap_version", "0.0.1")
    # Until then, every answer says it (queries never build).
    queried = json.loads(roslynmap("call", "symbols_search", json.dumps({"query": "Survivor"}), "--repo", str(repo),
                                   env=env).stdout)
    assert f"The baseline was built by roslynmap 0.0.1, and this is {__version__}: answers miss what this version " \
           "extracts. Call index_ensure_baseline to rebuild it." in queried["warnings"]
    summary = json.loads(roslynmap("index", str(repo), "--json", env=env).stdout)
    assert summary["built"] is True and summary["source"] == "built"
    assert f"The baseline for HEAD was built by roslynmap 0.0.1; rebuilt by {__version__}." in summary["warnings"]
    again = json.loads(roslynmap("index", str(repo), "--json", env=env).stdout)
    assert again["source"] == "local"


def test_restore_flag_restores_first(tmp_path: Path) -> None:
    repo = make_repo(TESTDATA / "NotRestored", tmp_path / "NotRestored", restore=False)
    done = roslynmap("index", str(repo), "--json", "--restore", env={"ROSLYNMAP_HOME": str(tmp_path / "home")})
    summary = json.loads(done.stdout)
    assert done.returncode == 0 and summary["semantic_level"] == "full"
    assert [(p["name"], p["restored"]) for p in summary["projects"]] == [("NotRestored", True)]


def test_sln_with_a_missing_project_indexes_the_rest(tmp_path: Path) -> None:
    """A .sln naming a project that no longer exists: the solution restore fails, so each project is
    restored on its own; the one that exists is restored and indexed, the missing one is listed with its
    reason, and the failed restore fails the command (exit 1, docs/ci.md)."""
    repo = make_repo(TESTDATA / "NotRestored", tmp_path / "Mixed", restore=False)
    ghost = repo / "ghost"
    ghost.mkdir()
    shutil.copy2(repo / "NotRestored.csproj", ghost / "Ghost.csproj")
    for cmd in (["dotnet", "new", "sln", "-n", "Mixed", "--format", "sln"],
                ["dotnet", "sln", "Mixed.sln", "add", "NotRestored.csproj", "ghost/Ghost.csproj"]):
        subprocess.run(cmd, cwd=repo, check=True, capture_output=True, timeout=120)
    shutil.rmtree(ghost)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "sln"], cwd=repo, check=True, env={**os.environ, **GIT_ENV})
    done = roslynmap("index", str(repo), "--json", "--restore", env={"ROSLYNMAP_HOME": str(tmp_path / "home")})
    summary = json.loads(done.stdout)
    assert done.returncode == 1, done.stdout
    assert [(p["name"], p["restored"], p["semantic_level"]) for p in summary["projects"]] == [
        ("NotRestored", True, "full"), ("Ghost", False, "syntax_only")]
    ghost_entry = summary["projects"][1]
    assert ghost_entry["path"] == "ghost/Ghost.csproj" and "Ghost.csproj" in ghost_entry["load_errors"][0]
    assert ghost_entry["hint"].startswith("The project file could not be loaded")
    restore = summary["restore"]
    assert (restore["status"], restore["mode"]) == ("partial", "per_project")
    assert [(p["path"], p["status"]) for p in restore["projects"]] == [  # as `dotnet sln list` orders them
        ("ghost/Ghost.csproj", "failed"), ("NotRestored.csproj", "restored")]
    assert restore["projects"][0]["errors"] == ["error MSB1009: Project file does not exist."]
    assert summary["workspace_diagnostics"][0] == restore["message"]
    assert summary["semantic_level"] == "partial"


def test_restore_goes_project_by_project_when_one_project_cannot_restore(tmp_path: Path) -> None:
    """RestoreMix: Mobile needs a workload this SDK lacks, which fails `dotnet restore` of the solution for
    all three projects; restored one by one, the two good ones bind fully. Text mode prints each outcome."""
    repo = make_repo(TESTDATA / "RestoreMix", tmp_path / "RestoreMix", restore=False)
    env = {"ROSLYNMAP_HOME": str(tmp_path / "home")}
    done = roslynmap("index", str(repo), "--json", "--restore", env=env)
    assert done.returncode == 1, done.stdout + done.stderr  # a failed restore fails the command (docs/ci.md)
    summary = json.loads(done.stdout)
    workload = "error NETSDK1147: To build this project, the following workloads must be installed: android"
    assert summary["restore"]["status"] == "partial" and summary["restore"]["mode"] == "per_project"
    assert summary["restore"]["projects"] == [
        {"path": "Good.App/Good.App.csproj", "status": "restored", "errors": []},
        {"path": "Good.Core/Good.Core.csproj", "status": "restored", "errors": []},
        {"path": "Mobile/Mobile.csproj", "status": "failed", "errors": [
            workload,
            "error NETSDK1147: To install these workloads, run the following command: dotnet workload restore"]},
    ]
    assert summary["restore"]["message"] == (
        "dotnet restore of the solution failed; restored project by project: 2 of 3 restored; not restored: "
        f"Mobile/Mobile.csproj ({workload}).")
    projects = {p["name"]: p for p in summary["projects"]}
    assert {n: (p["restored"], p["semantic_level"]) for n, p in projects.items()} == {
        "Good.Core": (True, "full"), "Good.App": (True, "full"), "Mobile": (False, "full")}
    # Mobile's one class needs nothing its failed restore would have brought: no missing reference, so the
    # level is full from evidence (docs/honesty.md) and no hint asks for a restore that cannot help.
    assert projects["Mobile"]["missing_reference_errors"] == 0 and "hint" not in projects["Mobile"]
    assert "hint" not in projects["Good.App"]

    text = roslynmap("index", str(repo), "--restore", "--force", env=env)
    assert text.returncode == 1
    lines = text.stdout.splitlines()
    assert "    restored  Good.Core/Good.Core.csproj" in lines
    assert "    failed    Mobile/Mobile.csproj" in lines
    assert f"              {workload}" in lines
    assert "index again" not in text.stdout
    assert text.stderr.splitlines()[-1] == (
        "roslynmap: error: the baseline was built and kept, but the restore --restore asked for did not succeed: "
        f"{summary['restore']['message']} (exit 1 so that CI notices; without --restore, what restored is"
        " accepted: docs/ci.md)")


def test_ensure_baseline_restores_missing_assets_by_default(tmp_path: Path) -> None:
    """index_ensure_baseline without `restore` restores what lacks its assets, as an IDE does on open;
    restore=false never does, and then hints at restore=true."""
    repo = make_repo(TESTDATA / "NotRestored", tmp_path / "NotRestored", restore=False)
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(tmp_path / "home")})
    try:
        plain = server.call("index_ensure_baseline", {"restore": False})
        # No package references: unrestored, yet every reference binds, so full (docs/honesty.md).
        assert plain["data"]["semantic_level"] == "full" and plain["data"]["restore"] is None
        assert [(p["name"], p["restored"]) for p in plain["data"]["projects"]] == [("NotRestored", False)]
        auto = server.call("index_ensure_baseline", {"force": True})
        data = auto["data"]
        assert data["semantic_level"] == "full"
        assert data["restore"]["status"] == "restored" and data["restore"]["automatic"] is True
        assert data["restore"]["mode"] == "solution"
        assert [(p["name"], p["restored"]) for p in data["projects"]] == [("NotRestored", True)]
    finally:
        server.close()


GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com"}
