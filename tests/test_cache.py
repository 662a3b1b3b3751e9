"""The shared baseline cache: push, verified pull, concurrent publishers, refusals, CLI exit codes,
index_list_baselines and index_cleanup over MCP.

Indexing costs seconds, so most tests push the session's Shop baseline (or copies of it in fresh
ROSLYNMAP_HOMEs) instead of indexing again. Nothing here writes to the session `home`.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from filelock import FileLock
from roslynmap import __version__
from roslynmap.store import cache
from roslynmap.store.repo import RepoInfo, inspect_repo
from roslynmap.store.schema import SCHEMA_VERSION

from tests.conftest import roslynmap
from tests.mcp_client import McpServerProcess
from tests.repos import TESTDATA, make_repo

NO_CACHE = {"ROSLYNMAP_CACHE_DIR": ""}  # a blank variable means "no shared cache"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def shop_baseline(shop: Path, home: Path) -> tuple[RepoInfo, Path]:
    info = inspect_repo(shop)
    return info, home / "repos" / info.repo_id / "baselines" / f"{info.commit}.db"


def seeded_home(root: Path, info: RepoInfo, baseline: Path) -> Path:
    """A fresh ROSLYNMAP_HOME already holding a copy of the Shop baseline (no index run)."""
    folder = root / "repos" / info.repo_id / "baselines"
    folder.mkdir(parents=True)
    shutil.copyfile(baseline, folder / baseline.name)
    return root


def temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def call(tool: str, args: dict[str, Any], repo: Path, env: dict[str, str]) -> dict[str, Any]:
    done = roslynmap("call", tool, json.dumps(args), "--repo", str(repo), env=env)
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def test_push_then_a_fresh_home_pulls(shop: Path, home: Path, tmp_path: Path) -> None:
    info, local = shop_baseline(shop, home)
    short = info.commit[:12]
    meta = cache.database_meta(local)
    store = tmp_path / "cache"
    entry = store / info.repo_id / info.commit
    done = roslynmap("index", str(shop), "--push", "--cache-dir", str(store), "--json",
                     env={"ROSLYNMAP_HOME": str(home), **NO_CACHE})
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert (out["source"], out["from_cache"], out["cache_dir"]) == ("local", False, str(store))
    assert out["push"] == {"status": "published", "pushed": True, "entry": str(entry),
                           "message": f"Published the baseline for {short} to {entry}.",
                           "sha256": sha256(local), "size_bytes": local.stat().st_size}
    assert f"roslynmap: Published the baseline for {short} to {entry}.\n" in done.stderr
    manifest = json.loads((entry / "manifest.json").read_text())
    assert {k: manifest[k] for k in ("format", "repo_id", "commit", "file", "sha256", "size_bytes",
                                     "schema_version", "semantic_level", "counts", "created_at")} == {
        "format": 1, "repo_id": info.repo_id, "commit": info.commit, "file": "baseline.db",
        "sha256": sha256(local), "size_bytes": local.stat().st_size, "schema_version": SCHEMA_VERSION,
        "semantic_level": "full", "counts": meta["counts"], "created_at": meta["created_at"]}
    assert manifest["toolchain"] == {"roslynmap_version": __version__, "roslyn_version": meta["roslyn_version"],
                                     "sdk_version": meta["sdk_version"]}
    assert (entry / "baseline.db").read_bytes() == local.read_bytes()
    assert temp_files(entry) == []

    # A teammate's machine: nothing local, the cache configured through the environment.
    fresh = tmp_path / "fresh"
    env = {"ROSLYNMAP_HOME": str(fresh), "ROSLYNMAP_CACHE_DIR": str(store)}
    ensured = call("index_ensure_baseline", {}, shop, env)
    assert ensured["ok"] is True
    data = ensured["data"]
    assert (data["source"], data["from_cache"], data["built"], data["cache_dir"]) == ("cache", True, False, str(store))
    assert data["counts"] == meta["counts"] and data["semantic_level"] == "full"
    assert ensured["answer"].startswith(f"Pulled from the shared cache for {short}: ")
    assert "warnings" not in ensured
    pulled = fresh / "repos" / info.repo_id / "baselines" / f"{info.commit}.db"
    assert pulled.read_bytes() == local.read_bytes()
    assert call("index_ensure_baseline", {}, shop, env)["data"]["source"] == "local"

    query = {"query": "Repository", "kinds": ["Class", "Interface"]}
    here, there = call("symbols_search", query, shop, env), call("symbols_search", query, shop,
                                                                   {"ROSLYNMAP_HOME": str(home), **NO_CACHE})
    assert here["ok"] and len(here["data"]["results"]) == 7
    assert (here["answer"], here["data"], here["meta"]) == (there["answer"], there["data"], there["meta"]) == (
        here["answer"], here["data"], {"semantic_level": "full"})  # lean meta: the level, nothing else to say

    # `roslynmap index` pulls too (a third machine, --cache-dir instead of the variable).
    third = roslynmap("index", str(shop), "--cache-dir", str(store), "--json",
                      env={"ROSLYNMAP_HOME": str(tmp_path / "third"), **NO_CACHE})
    assert third.returncode == 0, third.stderr
    summary = json.loads(third.stdout)
    assert (summary["source"], summary["from_cache"], summary["built"], summary["push"]) == ("cache", True, False, None)
    assert isinstance(summary["pull_seconds"], float)
    assert f"roslynmap: pulled the baseline for {short} from {store} in " in third.stderr


def test_two_concurrent_pushers_publish_once(shop: Path, home: Path, tmp_path: Path) -> None:
    info, local = shop_baseline(shop, home)
    store = tmp_path / "cache"
    procs = [
        subprocess.Popen([sys.executable, "-m", "roslynmap.cli", "index", str(shop), "--push", "--cache-dir",
                          str(store), "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, **NO_CACHE,
                              "ROSLYNMAP_HOME": str(seeded_home(tmp_path / f"h{i}", info, local))})
        for i in range(2)
    ]
    results = [(p.returncode, json.loads(out), err) for p in procs for out, err in [p.communicate(timeout=120)]]
    assert [code for code, _, _ in results] == [0, 0], results
    pushes = sorted((out["push"] for _, out, _ in results), key=lambda p: p["status"])
    assert [(p["status"], p["pushed"]) for p in pushes] == [("exists", False), ("published", True)]
    assert pushes[0]["message"].startswith(f"The cache already holds a complete baseline for {info.commit[:12]} "
                                           "(published ")
    entry = store / info.repo_id / info.commit
    manifest = json.loads((entry / "manifest.json").read_text())
    assert cache.verify_entry(entry, manifest, info.repo_id, info.commit) is None
    assert manifest["sha256"] == sha256(local)
    assert temp_files(entry) == []


def test_a_publisher_waits_for_the_entry_lock(shop: Path, home: Path, tmp_path: Path) -> None:
    info = inspect_repo(shop)
    store = tmp_path / "cache"
    entry = store / info.repo_id / info.commit
    entry.mkdir(parents=True)
    with FileLock(entry / ".lock"):
        proc = subprocess.Popen([sys.executable, "-m", "roslynmap.cli", "index", str(shop), "--push",
                                 "--cache-dir", str(store), "--json"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                env={**os.environ, **NO_CACHE, "ROSLYNMAP_HOME": str(home)})
        time.sleep(3)
        assert proc.poll() is None  # blocked on the lock
        assert sorted(p.name for p in entry.iterdir()) == [".lock"]
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert json.loads(out)["push"]["status"] == "published"


def test_a_corrupted_entry_is_refused_and_built_locally(shop: Path, home: Path, tmp_path: Path) -> None:
    info, local = shop_baseline(shop, home)
    short = info.commit[:12]
    store = tmp_path / "cache"
    published = cache.publish(store, info.repo_id, info.commit, local)
    assert published.status == "published"
    cached = published.entry / "baseline.db"
    data = bytearray(cached.read_bytes())
    data[len(data) // 2] ^= 0xFF
    cached.write_bytes(bytes(data))
    expected, got = sha256(local), sha256(cached)

    fresh = tmp_path / "fresh"
    ensured = call("index_ensure_baseline", {}, shop, {"ROSLYNMAP_HOME": str(fresh), "ROSLYNMAP_CACHE_DIR": str(store)})
    assert ensured["ok"] is True
    assert (ensured["data"]["source"], ensured["data"]["from_cache"], ensured["data"]["built"]) == (
        "built", False, True)
    assert ensured["warnings"] == [
        f"cache entry for {short} failed checksum (sha256 {got[:16]}, manifest says {expected[:16]}); built locally."]
    assert ensured["data"]["counts"] == cache.database_meta(local)["counts"]
    baselines = fresh / "repos" / info.repo_id / "baselines"
    assert temp_files(baselines) == []

    # The next push from a machine with a good baseline repairs the entry.
    done = roslynmap("index", str(shop), "--push", "--cache-dir", str(store), "--json",
                     env={"ROSLYNMAP_HOME": str(fresh), **NO_CACHE})
    assert done.returncode == 0, done.stderr
    push = json.loads(done.stdout)["push"]
    assert push["status"] == "replaced" and push["pushed"] is True
    assert push["message"] == (
        f"Published the baseline for {short} to {published.entry} (replaced an entry that failed verification: "
        f"cache entry for {short} failed checksum (sha256 {got[:16]}, manifest says {expected[:16]})).")
    manifest = json.loads((published.entry / "manifest.json").read_text())
    assert cache.verify_entry(published.entry, manifest, info.repo_id, info.commit) is None


def test_entries_of_another_schema_are_refused(shop: Path, home: Path, tmp_path: Path) -> None:
    info, local = shop_baseline(shop, home)
    short = info.commit[:12]
    store = tmp_path / "cache"
    entry = cache.publish(store, info.repo_id, info.commit, local).entry
    dest = tmp_path / "local" / f"{info.commit}.db"

    manifest = json.loads((entry / "manifest.json").read_text())
    (entry / "manifest.json").write_text(json.dumps({**manifest, "schema_version": 999}))
    refused = cache.pull(store, info.repo_id, info.commit, dest)
    assert (refused.status, refused.message) == (
        "rejected", f"cache entry for {short} has schema version 999; this roslynmap reads {SCHEMA_VERSION}")
    assert not dest.exists()

    # A manifest that claims schema 1 over a database of another schema: the database is checked too.
    old = tmp_path / "old.db"
    shutil.copyfile(local, old)
    conn = sqlite3.connect(old)
    conn.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION + 1),))
    conn.commit()
    conn.close()
    shutil.copyfile(old, entry / "baseline.db")
    (entry / "manifest.json").write_text(json.dumps({**manifest, "sha256": sha256(old),
                                                     "size_bytes": old.stat().st_size}))
    refused = cache.pull(store, info.repo_id, info.commit, dest)
    assert (refused.status, refused.message) == (
        "rejected", f"cache entry for {short} holds a database of schema version {SCHEMA_VERSION + 1}; "
        f"this roslynmap reads {SCHEMA_VERSION}")
    assert not dest.exists() and temp_files(dest.parent) == []

    missing = cache.pull(store, info.repo_id, "0" * 40, dest)
    assert (missing.status, missing.message) == ("missing", None)
    unreachable = cache.pull(tmp_path / "nope", info.repo_id, info.commit, dest)
    assert (unreachable.status, unreachable.message) == (
        "missing", f"the cache directory {tmp_path / 'nope'} does not exist or is not reachable")


def test_degraded_baselines_are_pushed_only_when_allowed(tmp_path: Path) -> None:
    repo = make_repo(TESTDATA / "Broken", tmp_path / "Broken")
    info = inspect_repo(repo)
    short = info.commit[:12]
    store = tmp_path / "cache"
    entry = store / info.repo_id / info.commit
    env = {"ROSLYNMAP_HOME": str(tmp_path / "home"), **NO_CACHE}
    refused = roslynmap("index", str(repo), "--push", "--cache-dir", str(store), "--json", env=env)
    assert refused.returncode == 3, refused.stderr  # a push that did not happen fails CI
    message = (f"Not pushed: the baseline for {short} is partial (not every project compiled); teammates would "
               "get incomplete answers. Fix the build (or --restore), or pass --allow-degraded to publish it anyway.")
    out = json.loads(refused.stdout)
    assert (out["source"], out["semantic_level"]) == ("built", "partial")
    assert out["push"] == {"status": "skipped_degraded", "pushed": False, "entry": str(entry), "message": message}
    assert f"roslynmap: {message}\n" in refused.stderr
    assert not (entry / "manifest.json").exists()

    allowed = roslynmap("index", str(repo), "--push", "--allow-degraded", "--cache-dir", str(store), "--json",
                        env=env)
    assert allowed.returncode == 2, allowed.stderr  # still degraded: the exit code reports the baseline
    out = json.loads(allowed.stdout)
    assert (out["source"], out["push"]["status"], out["push"]["pushed"]) == ("local", "published", True)
    assert json.loads((entry / "manifest.json").read_text())["semantic_level"] == "partial"


def test_a_baseline_indexed_with_uncommitted_changes_is_not_pushed(shop: Path, home: Path, tmp_path: Path) -> None:
    info, local = shop_baseline(shop, home)
    dirty_home = seeded_home(tmp_path / "h", info, local)
    conn = sqlite3.connect(dirty_home / "repos" / info.repo_id / "baselines" / local.name)
    conn.execute("UPDATE meta SET value=? WHERE key='dirty_files_at_index'",
                 (json.dumps(["notes.txt", "src/Shop.Domain/obj/Shop.Domain.csproj.nuget.g.props",
                              "src/Shop.Domain/Order.cs"]),))
    conn.commit()
    conn.close()
    store = tmp_path / "cache"
    done = roslynmap("index", str(shop), "--push", "--cache-dir", str(store), "--json",
                     env={"ROSLYNMAP_HOME": str(dirty_home), **NO_CACHE})
    assert done.returncode == 3, done.stderr
    assert json.loads(done.stdout)["push"] == {
        "status": "skipped_dirty", "pushed": False, "entry": str(store / info.repo_id / info.commit),
        "message": f"Not pushed: the baseline for {info.commit[:12]} was indexed with uncommitted changes to "
                   "src/Shop.Domain/Order.cs; it is not the commit's. Index a clean checkout to publish."}


def test_bad_cache_dirs_fail_clearly(shop: Path, home: Path, tmp_path: Path) -> None:
    env = {"ROSLYNMAP_HOME": str(home), **NO_CACHE}

    def index(*extra: str) -> tuple[int, dict[str, Any]]:
        done = roslynmap("index", str(shop), "--json", *extra, env=env)
        return done.returncode, json.loads(done.stdout)

    blank_hint = ("Pass the shared folder (--cache-dir /mnt/roslynmap-cache or ROSLYNMAP_CACHE_DIR), or omit "
                  "--cache-dir to use no shared cache.")
    for extra in (("--push", "--cache-dir", ""), ("--cache-dir", "  ")):
        assert index(*extra) == (1, {"ok": False, "error": {
            "code": "INVALID_ARGUMENT", "message": "The cache directory is blank (--cache-dir \"\").",
            "hint": blank_hint, "retryable": False}})

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    code, out = index("--push", "--cache-dir", str(blocker / "sub"))
    assert code == 1
    assert out["error"]["message"] == f"The cache directory {blocker / 'sub'} is not writable: Not a directory."
    assert out["error"]["hint"].startswith("Point --cache-dir (or ROSLYNMAP_CACHE_DIR) at a folder")

    code, out = index("--push")
    assert (code, out["error"]["message"]) == (1, "--push needs a shared cache directory.")

    code, out = index("--push", "--cache-dir", str(shop / ".cache"))
    assert (code, out["error"]["message"]) == (
        1, f"The cache directory {shop / '.cache'} is inside the repository {shop}; publishing there would write "
           "into the working tree.")
    assert not (shop / ".cache").exists()
    status = subprocess.run(["git", "status", "--porcelain"], cwd=shop, capture_output=True, text=True, check=True)
    assert status.stdout == ""

    served = roslynmap("serve", "--cache-dir", "", env=env)
    assert served.returncode == 1
    assert served.stderr == ("roslynmap: error INVALID_ARGUMENT: The cache directory is blank (--cache-dir \"\").\n"
                             f"hint: {blank_hint}\n")


def test_list_baselines_and_cleanup_over_mcp(shop: Path, home: Path, tmp_path: Path) -> None:
    info, local = shop_baseline(shop, home)
    meta = cache.database_meta(local)
    size = local.stat().st_size
    root = seeded_home(tmp_path / "h", info, local)
    folder = root / "repos" / info.repo_id / "baselines"
    old = [c * 40 for c in "abcd"]  # oldest first; HEAD's is older still
    for commit in old:
        shutil.copyfile(local, folder / f"{commit}.db")
    now = time.time()
    for age, name in enumerate([*reversed(old), info.commit]):
        os.utime(folder / f"{name}.db", (now - 100 * (age + 1), now - 100 * (age + 1)))
    stale = folder / f".{'e' * 40}.db.host.1.abcd1234.tmp"
    stale.write_bytes(b"x" * 100)
    os.utime(stale, (now - 7200, now - 7200))
    workspaces = root / "repos" / info.repo_id / "workspaces"
    workspaces.mkdir()
    (workspaces / "ws-1.json").write_text(json.dumps({"workspace_id": "ws-1", "baseline_commit": old[0]}))
    (workspaces / "broken.json").write_text("{not json")
    store = tmp_path / "cache"
    cache.publish(store, info.repo_id, info.commit, local)
    server = McpServerProcess(shop, {"ROSLYNMAP_HOME": str(root), "ROSLYNMAP_CACHE_DIR": str(store)})
    try:
        tools = {t.name: t for t in server.list_tools()}
        assert tools["index_list_baselines"].annotations.read_only_hint is True
        assert not tools["index_cleanup"].annotations.read_only_hint  # left out: MCP's default is false
        assert tools["index_cleanup"].annotations.destructive_hint is True

        listed = server.call("index_list_baselines", {})
        assert listed["ok"] is True
        assert listed["answer"] == (f"5 local baseline(s), {5 * size / 1e6:.1f} MB; HEAD has one. 1 also in the "
                                    "shared cache. 1 used by workspaces.")
        bad_workspace = ("Workspace file broken.json is unreadable (JSONDecodeError: Expecting property name "
                         "enclosed in double quotes: line 1 column 2 (char 1)); ignored.")
        assert listed["warnings"] == [bad_workspace]
        assert listed["data"]["total_bytes"] == 5 * size
        assert listed["data"]["head_commit"] == info.commit and listed["data"]["cache_dir"] == str(store)
        common = {"size_bytes": size, "created_at": meta["created_at"], "semantic_level": "full",
                  "counts": meta["counts"], "schema_version": SCHEMA_VERSION}
        assert listed["data"]["baselines"] == [
            {"commit": "d" * 40, "is_head": False, **common, "in_cache": False, "workspaces": []},
            {"commit": "c" * 40, "is_head": False, **common, "in_cache": False, "workspaces": []},
            {"commit": "b" * 40, "is_head": False, **common, "in_cache": False, "workspaces": []},
            {"commit": "a" * 40, "is_head": False, **common, "in_cache": False, "workspaces": ["ws-1"]},
            {"commit": info.commit, "is_head": True, **common, "in_cache": True, "workspaces": []},
        ]

        paged = server.call("index_list_baselines", {"limit": 2, "offset": 2})
        assert [b["commit"] for b in paged["data"]["baselines"]] == ["b" * 40, "a" * 40]
        assert (paged["truncated"], paged["overflow"]["next_offset"], paged["overflow"]["total"]) == (True, 4, 5)

        dry = server.call("index_cleanup", {"keep": 1, "dry_run": True})
        assert dry["answer"] == f"Would remove 2 baseline(s) and 1 abandoned temp file(s), " \
                                f"{(2 * size + 100) / 1e6:.1f} MB; kept 3."
        assert len(list(folder.glob("*.db"))) == 5 and stale.exists()

        cleaned = server.call("index_cleanup", {"keep": "1"})
        assert cleaned["ok"] is True
        assert cleaned["data"] == {
            "keep": 1, "dry_run": False, "bytes_freed": 2 * size + 100, "removed_temp_files": [stale.name],
            "removed": [{"commit": "c" * 40, "size_bytes": size}, {"commit": "b" * 40, "size_bytes": size}],
            "kept": [{"commit": "d" * 40, "reasons": ["newest"]}, {"commit": "a" * 40, "reasons": ["workspace ws-1"]},
                     {"commit": info.commit, "reasons": ["head"]}]}
        assert cleaned["warnings"] == [bad_workspace]
        assert sorted(p.name for p in folder.iterdir()) == sorted(f"{c}.db" for c in ("a" * 40, "d" * 40, info.commit))

        # keep=0 still keeps HEAD's baseline and the workspace's.
        cleaned = server.call("index_cleanup", {"keep": 0})
        assert [r["commit"] for r in cleaned["data"]["removed"]] == ["d" * 40]
        assert [k["commit"] for k in cleaned["data"]["kept"]] == ["a" * 40, info.commit]
        assert [b["commit"] for b in server.call("index_list_baselines", {})["data"]["baselines"]] == [
            "a" * 40, info.commit]
        assert server.call("symbols_search", {"query": "OrderService"})["ok"] is True

        bad = server.call("index_cleanup", {"keep": -1})
        assert bad["ok"] is False and bad["error"]["code"] == "INVALID_ARGUMENT"
    finally:
        server.close()


def test_cache_prune_keeps_the_newest_and_removes_old_and_abandoned_entries(
        shop: Path, home: Path, tmp_path: Path) -> None:
    """`roslynmap cache list | prune` on a cache of one real entry copied to five more commits, their
    manifests dated 1, 10, 40, 50 and 60 days back, plus an abandoned half-written entry."""
    info, local = shop_baseline(shop, home)
    store = tmp_path / "cache"
    entry = cache.publish(store, info.repo_id, info.commit, local).entry
    manifest = json.loads((entry / "manifest.json").read_text())
    now = time.time()
    for days in (1, 10, 40, 50, 60):
        commit = f"{days:02d}" * 20
        copy = shutil.copytree(entry, store / info.repo_id / commit)
        published = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - days * 86400))
        (copy / "manifest.json").write_text(json.dumps({**manifest, "commit": commit, "published_at": published}))
    abandoned = store / info.repo_id / ("a" * 40)
    abandoned.mkdir()
    (abandoned / ".baseline.db.1234.tmp").write_bytes(b"partial")
    os.utime(abandoned, (now - 3 * 86400, now - 3 * 86400))
    fresh = store / info.repo_id / ("b" * 40)  # a publish in progress right now
    fresh.mkdir()
    env = {"ROSLYNMAP_CACHE_DIR": str(store)}

    done = roslynmap("cache", "list", "--json", env=env)
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)["entries"]
    assert [(e["commit"], e["state"]) for e in listed] == [  # newest first
        ("b" * 40, "incomplete"), (info.commit, "complete"), ("01" * 20, "complete"), ("a" * 40, "incomplete"),
        ("10" * 20, "complete"), ("40" * 20, "complete"), ("50" * 20, "complete"), ("60" * 20, "complete")]
    assert listed[1]["size_bytes"] == local.stat().st_size + (entry / "manifest.json").stat().st_size
    assert (listed[1]["semantic_level"], listed[4]["age_days"]) == ("full", 10.0)

    dry = json.loads(roslynmap("cache", "prune", "--older-than", "30", "--keep", "3", "--dry-run", "--json",
                               env=env).stdout)["entries"]
    expected = {info.commit: "kept", "b" * 40: "kept", "01" * 20: "kept", "a" * 40: "would_remove",
                "10" * 20: "kept", "40" * 20: "would_remove", "50" * 20: "would_remove", "60" * 20: "would_remove"}
    assert {e["commit"]: e["action"] for e in dry} == expected
    assert len(list((store / info.repo_id).iterdir())) == 8  # a dry run removes nothing
    reasons = {e["commit"]: e["reason"] for e in dry}
    assert (reasons["10" * 20], reasons["40" * 20], reasons["a" * 40], reasons["b" * 40]) == (
        "one of the newest 3", "older than 30 days and not one of the newest 3",
        "incomplete for over a day (an interrupted publish)", "incomplete, may still be publishing")

    done = roslynmap("cache", "prune", "--older-than", "30", "--keep", "3", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("removed 4 of 8 entries (")
    assert sorted(p.name for p in (store / info.repo_id).iterdir()) == sorted(
        [info.commit, "b" * 40, "01" * 20, "10" * 20])
    # What stays still pulls.
    pulled = cache.pull(store, info.repo_id, info.commit, tmp_path / "local" / f"{info.commit}.db")
    assert pulled.status == "pulled"

    missing = roslynmap("cache", "prune", "--cache-dir", str(tmp_path / "nope"), env=env)
    assert (missing.returncode, missing.stderr) == (
        1, f"error INVALID_ARGUMENT: The cache directory {tmp_path / 'nope'} does not exist.\n"
           "hint: Pass the folder CI publishes to (--cache-dir or ROSLYNMAP_CACHE_DIR).\n")
    unknown = roslynmap("cache", "list", "--repo-id", "nope", env=env)
    assert (unknown.returncode, unknown.stderr) == (
        1, f"error NOT_FOUND: The cache holds no repository 'nope'.\nhint: Repositories in {store}: {info.repo_id}.\n")
