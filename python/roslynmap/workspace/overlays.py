"""Workspaces: an agent's uncommitted edits as an overlay over one baseline (DESIGN §6, §8).

On disk, per repository: `workspaces/<id>.json` (the record: base commit, solution, revision, the
fingerprint of every file the overlay holds) and `workspaces/<id>.db` (the overlay, store/overlay.py).
The record pins its baseline (workspace_users in baselines.py keeps it from index_cleanup).

A refresh runs under a per-workspace file lock: it finds the changed `.cs` files (git, or the paths
given), sends the texts of the whole overlay to the warm worker, which re-extracts only the files
whose text changed since the last refresh plus their dependents, writes the new overlay into a temp
file, and the refresh renames it into place. Readers never see a half-written overlay, two
workspaces refresh independently, and the baseline is only ever opened read-only.
"""

from __future__ import annotations

import calendar
import contextlib
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.readable import is_readable
from roslynmap.roslyn.client import WorkerClient
from roslynmap.roslyn.discovery import find_solution
from roslynmap.store import overlay as overlay_store
from roslynmap.store.paths import baseline_path, repo_dir
from roslynmap.store.reader import open_baseline, read_meta
from roslynmap.store.repo import RepoInfo
from roslynmap.store.schema import SCHEMA_VERSION
from roslynmap.workspace.baselines import shared_worker

ID_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
LOCK_TIMEOUT_S = 600.0
USED_TOUCH_INTERVAL_S = 30.0
# Files outside the overlay are checked for edits at most this often per workspace (a stat per file).
STALE_SCAN_INTERVAL_S = 1.0
STALE_TEMP_S = 3600.0
SKIP_DIRS = {"bin", "obj"}


def _now_iso(epoch: float | None = None) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() if epoch is None else epoch))


def workspaces_dir(repo_id: str) -> Path:
    return repo_dir(repo_id) / "workspaces"


def record_path(repo_id: str, workspace_id: str) -> Path:
    return workspaces_dir(repo_id) / f"{workspace_id}.json"


def overlay_path(repo_id: str, workspace_id: str) -> Path:
    return workspaces_dir(repo_id) / f"{workspace_id}.db"


def lock_path(repo_id: str, workspace_id: str) -> Path:
    return workspaces_dir(repo_id) / f"{workspace_id}.lock"


def _lock(repo_id: str, workspace_id: str) -> FileLock:
    folder = workspaces_dir(repo_id)
    folder.mkdir(parents=True, exist_ok=True)
    return FileLock(str(lock_path(repo_id, workspace_id)), timeout=LOCK_TIMEOUT_S)


@contextlib.contextmanager
def _locked(repo_id: str, workspace_id: str, *, existing: bool = True) -> Any:
    """The workspace's file lock. `existing`: the workspace must exist, checked BEFORE a lock file is made,
    so a call naming an unknown workspace leaves nothing on disk. A lock whose workspace does not exist
    afterwards (deleted, or a create that failed) is removed."""
    if existing:
        require_record(repo_id, workspace_id)
    try:
        with _lock(repo_id, workspace_id):
            yield
    except Timeout as exc:
        raise RoslynMapError(ErrorCode.BUSY, f"Workspace '{workspace_id}' stayed locked for {LOCK_TIMEOUT_S:.0f} s.",
                             "Another refresh of it is running; retry when it finishes.") from exc
    finally:
        if not record_path(repo_id, workspace_id).exists():
            with contextlib.suppress(OSError):
                lock_path(repo_id, workspace_id).unlink()


ORPHAN_LOCK_S = 60.0


def remove_orphan_locks(repo_id: str) -> list[str]:
    """Lock files of workspaces that do not exist (left by older versions), idle for a minute."""
    folder = workspaces_dir(repo_id)
    removed = []
    now = time.time()
    for lock in folder.glob("*.lock") if folder.exists() else []:
        with contextlib.suppress(OSError):
            if not (folder / f"{lock.stem}.json").exists() and now - lock.stat().st_mtime > ORPHAN_LOCK_S:
                lock.unlink()
                removed.append(lock.stem)
    return removed


def validate_id(workspace_id: str) -> str:
    if not ID_PATTERN.match(workspace_id or ""):
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"Invalid workspace_id '{workspace_id}'.",
                             "Use 1 to 64 characters among letters, digits, '_', '.' and '-', e.g. "
                             "workspace_id=\"agent-1\".")
    return workspace_id


def list_ids(repo_id: str) -> list[str]:
    folder = workspaces_dir(repo_id)
    if not folder.exists():
        return []
    return sorted(p.stem for p in folder.glob("*.json") if ID_PATTERN.match(p.stem))


def read_record(repo_id: str, workspace_id: str) -> dict[str, Any] | None:
    try:
        record: dict[str, Any] = json.loads(record_path(repo_id, workspace_id).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except ValueError:
        return None
    return record


def not_found(repo_id: str, workspace_id: str) -> RoslynMapError:
    existing = list_ids(repo_id)
    hint = (f"Existing workspaces: {', '.join(existing[:10])}. Or create it: workspace_create(workspace_id="
            f"\"{workspace_id}\")." if existing else
            f"No workspace exists yet: workspace_create(workspace_id=\"{workspace_id}\").")
    return RoslynMapError(ErrorCode.WORKSPACE_NOT_FOUND, f"No workspace '{workspace_id}' in this repository.", hint,
                          candidates=[{"workspace_id": w} for w in existing[:10]])


def require_record(repo_id: str, workspace_id: str) -> dict[str, Any]:
    record = read_record(repo_id, validate_id(workspace_id))
    if record is None:
        raise not_found(repo_id, workspace_id)
    return record


def _write_record(repo_id: str, record: dict[str, Any]) -> None:
    final = record_path(repo_id, record["workspace_id"])
    final.parent.mkdir(parents=True, exist_ok=True)
    temp = final.with_name(f".{final.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    temp.write_text(json.dumps(record, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(temp, final)


def _baseline_solution(path: Path) -> str | None:
    if not path.exists():
        return None
    solution = read_meta(open_baseline(path)).get("solution")
    return str(solution) if solution else None


# ---------------------------------------------------------------- create / reset / delete / list

def create(repo: RepoInfo, workspace_id: str, solution_path: str | None = None) -> tuple[dict[str, Any], bool]:
    """(record, created). Idempotent: an existing workspace is returned as it is. The workspace stands on
    HEAD's baseline (which may not be built yet: refreshing then says INDEX_NOT_AVAILABLE)."""
    validate_id(workspace_id)
    with _locked(repo.repo_id, workspace_id, existing=False):
        existing = read_record(repo.repo_id, workspace_id)
        if existing is not None:
            return existing, False
        solution = None
        if solution_path:
            solution = find_solution(repo.root, solution_path).relative_to(repo.root).as_posix()
        record: dict[str, Any] = {
            "workspace_id": workspace_id, "repo_id": repo.repo_id, "repo_root": str(repo.root),
            "baseline_commit": repo.commit, "solution": solution, "created_at": _now_iso(),
            "overlay_revision": 0, "refreshed_at": None, "semantic_level": None, "files": {}, "rebound": [],
        }
        _write_record(repo.repo_id, record)
        return record, True


def reset(repo: RepoInfo, workspace_id: str) -> tuple[dict[str, Any], list[str]]:
    """Drops the overlay and stands the workspace on HEAD's baseline (when one exists; else it keeps its
    base, with a warning). The revision still increments: it names a new state."""
    with _locked(repo.repo_id, workspace_id):
        record = require_record(repo.repo_id, workspace_id)
        warnings = []
        if record["baseline_commit"] != repo.commit:
            if baseline_path(repo.repo_id, repo.commit).exists():
                record["baseline_commit"] = repo.commit
            else:
                warnings.append(f"HEAD {repo.commit[:12]} has no baseline yet; the workspace stays on "
                                f"{record['baseline_commit'][:12]}. Call index_ensure_baseline, then "
                                "workspace_reset again to move it to HEAD.")
        overlay_path(repo.repo_id, workspace_id).unlink(missing_ok=True)
        record.update(overlay_revision=int(record.get("overlay_revision", 0)) + 1, files={}, rebound=[],
                      refreshed_at=None, semantic_level=None, last_refresh=None, reset_at=_now_iso())
        _write_record(repo.repo_id, record)
        return record, warnings


def delete(repo: RepoInfo, workspace_id: str) -> dict[str, Any]:
    with _locked(repo.repo_id, workspace_id):
        record = require_record(repo.repo_id, workspace_id)
        overlay_path(repo.repo_id, workspace_id).unlink(missing_ok=True)
        record_path(repo.repo_id, workspace_id).unlink(missing_ok=True)
    # _locked removed the lock file (the record is gone)
    remove_orphan_locks(repo.repo_id)
    return record


def summary(repo: RepoInfo, record: dict[str, Any], head: str | None = None) -> dict[str, Any]:
    """What workspace_list shows for one workspace."""
    head = head or repo.commit
    files = record.get("files") or {}
    changed = [{"path": p, "state": f["state"], **({"in_solution": False} if f.get("in_solution") is False else {})}
               for p, f in sorted(files.items())]
    try:
        used = record_path(repo.repo_id, record["workspace_id"]).stat().st_mtime
    except OSError:
        used = None
    base = record["baseline_commit"]
    return {
        "workspace_id": record["workspace_id"],
        "baseline_commit": base,
        "baseline_available": baseline_path(repo.repo_id, base).exists(),
        "stale": base != head,
        "overlay_revision": int(record.get("overlay_revision", 0)),
        "changed_files": changed,
        "rebound_files": len(record.get("rebound") or []),
        "semantic_level": record.get("semantic_level"),
        "solution": record.get("solution"),
        "created_at": record.get("created_at"),
        "refreshed_at": record.get("refreshed_at"),
        "last_used_at": _now_iso(used) if used else None,
    }


def summaries(repo: RepoInfo) -> list[dict[str, Any]]:
    remove_orphan_locks(repo.repo_id)
    out = []
    for workspace_id in list_ids(repo.repo_id):
        record = read_record(repo.repo_id, workspace_id)
        if record is not None and isinstance(record.get("baseline_commit"), str):
            out.append(summary(repo, {**record, "workspace_id": workspace_id}))
    return out


# ---------------------------------------------------------------- change detection

def _git_run(root: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(["git", "-C", str(root), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _skipped(path: str) -> bool:
    return not path.endswith(".cs") or any(part in SKIP_DIRS for part in path.split("/")[:-1])


def git_changes(root: Path, base: str, indexed: set[str]) -> dict[str, str]:
    """{path: changed|added|deleted} for the `.cs` files of the working tree that differ from `base`
    (`git diff --name-status <base>` plus untracked files), judged against what the baseline indexed."""
    diff = _git_run(root, "diff", "--name-status", "-z", "--no-renames", base, "--", "*.cs")
    untracked = _git_run(root, "ls-files", "--others", "--exclude-standard", "-z", "--", "*.cs")
    diff_out, diff_err = diff.communicate(timeout=60)
    untracked_out, _ = untracked.communicate(timeout=60)
    if diff.returncode != 0:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT,
                             f"`git diff {base[:12]}` failed: {diff_err.decode(errors='replace').strip()[:300]}",
                             "Pass file_paths explicitly, or workspace_reset the workspace onto HEAD.")
    out: dict[str, str] = {}
    fields = diff_out.split(b"\0")
    for status, raw in zip(fields[0::2], fields[1::2], strict=False):
        path = raw.decode("utf-8", "replace")
        if not status or _skipped(path):
            continue
        code = status[:1].decode()
        if code == "D":
            if path in indexed:
                out[path] = "deleted"
        elif code == "A":
            out[path] = "changed" if path in indexed else "added"
        elif path in indexed:  # M, T, U: a file the baseline compiled
            out[path] = "changed"
    for raw in untracked_out.split(b"\0"):
        path = raw.decode("utf-8", "replace")
        if path and not _skipped(path):
            out[path] = "changed" if path in indexed else "added"
    return out


def scan_changes(root: Path, since: float, indexed: set[str]) -> dict[str, str]:
    """Without git: indexed files modified after `since` or gone, and `.cs` files the baseline lacks."""
    out: dict[str, str] = {}
    for path in indexed:
        try:
            if (root / path).stat().st_mtime > since:
                out[path] = "changed"
        except FileNotFoundError:
            out[path] = "deleted"
    for file in root.rglob("*.cs"):
        rel = file.relative_to(root).as_posix()
        if rel not in indexed and not _skipped(rel) and not any(p.startswith(".") for p in rel.split("/")):
            out[rel] = "added"
    return out


def explicit_changes(root: Path, paths: Iterable[str], indexed: set[str], previous: dict[str, str]) -> dict[str, str]:
    """file_paths mode: the overlay as it was, updated with the given files' state on disk. A given file
    the baseline lacks and the disk lacks leaves the overlay."""
    out = dict(previous)
    for path in paths:
        if _skipped(path):
            continue
        exists = (root / path).is_file()
        if path in indexed:
            out[path] = "changed" if exists else "deleted"
        elif exists:
            out[path] = "added"
        else:
            out.pop(path, None)
    return out


_indexed_cache: dict[str, tuple[int, set[str]]] = {}
_indexed_lock = threading.Lock()


def indexed_paths(baseline: Path) -> set[str]:
    """The files a baseline indexed (cached per baseline file)."""
    stat = baseline.stat()
    key = str(baseline)
    with _indexed_lock:
        cached = _indexed_cache.get(key)
        if cached is not None and cached[0] == stat.st_ino:
            return cached[1]
    conn = overlay_store.open_readonly(baseline)
    try:
        paths = {row[0] for row in conn.execute("SELECT path FROM files")}
    finally:
        conn.close()
    with _indexed_lock:
        _indexed_cache[key] = (stat.st_ino, paths)
    return paths


def _fingerprint(root: Path, path: str) -> tuple[dict[str, Any], str] | None:
    """(fingerprint, text) of a file as it is now, or None when it is gone."""
    file = root / path
    try:
        stat = file.stat()
        data = file.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
    return ({"sha1": hashlib.sha1(data).hexdigest(), "mtime_ns": stat.st_mtime_ns, "size": stat.st_size},
            data.decode("utf-8-sig", "replace"))


# ---------------------------------------------------------------- refresh

@dataclass
class RefreshResult:
    record: dict[str, Any]
    revision: int
    changed: dict[str, str]  # path -> state, the whole overlay
    extracted: list[str] = field(default_factory=list)
    rebound: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    not_in_solution: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)  # skipped: real path outside the repo, or .git/
    cold: bool = False
    load_seconds: float = 0.0
    timing_ms: dict[str, float] = field(default_factory=dict)
    worker_called: bool = False


def _clean_temps(folder: Path) -> None:
    now = time.time()
    for temp in folder.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            if now - temp.stat().st_mtime > STALE_TEMP_S:
                temp.unlink()


def _previous_overlay(path: Path, baseline: Path) -> tuple[Path | None, dict[str, Any]]:
    """The current overlay (if it is one this roslynmap can build on: same schema, made against this
    build of the baseline) and its meta. The overlay, not the record, says what it holds: a refresh
    interrupted between the two cannot leave rows behind."""
    if not path.exists():
        return None, {}
    try:
        meta = overlay_store.read_overlay_meta(path)
    except sqlite3.Error:
        return None, {}
    usable = meta.get("schema_version") == SCHEMA_VERSION and \
        meta.get("baseline_build_id") == overlay_store.baseline_build_id(baseline)
    return (path, meta) if usable else (None, {})


def refresh(repo: RepoInfo, workspace_id: str, file_paths: list[str] | None = None,
            worker: WorkerClient | None = None) -> RefreshResult:
    """Brings the workspace's overlay up to date with the working tree (or with `file_paths`)."""
    started = time.perf_counter()
    timing: dict[str, float] = {}
    with _locked(repo.repo_id, workspace_id):
        timing["lock"] = round((time.perf_counter() - started) * 1000, 2)
        record = require_record(repo.repo_id, workspace_id)
        base = record["baseline_commit"]
        baseline = baseline_path(repo.repo_id, base)
        if not baseline.exists():
            raise RoslynMapError(ErrorCode.INDEX_NOT_AVAILABLE,
                                 f"Workspace '{workspace_id}' stands on commit {base[:12]}, which has no baseline.",
                                 "Call index_ensure_baseline (for HEAD), then workspace_reset to stand the "
                                 "workspace on it, then index_refresh_overlay.")
        final = overlay_path(repo.repo_id, workspace_id)
        previous, previous_meta = _previous_overlay(final, baseline)
        before: dict[str, dict[str, Any]] = {
            path: {"state": f[0], "sha1": f[1]} for path, f in (previous_meta.get("fingerprints") or {}).items()}
        indexed = indexed_paths(baseline)
        mark = time.perf_counter()
        if file_paths is not None:
            current = explicit_changes(repo.root, file_paths, indexed, {p: f["state"] for p, f in before.items()})
        elif repo.is_git:
            current = git_changes(repo.root, base, indexed)
        else:
            current = scan_changes(repo.root, baseline.stat().st_mtime, indexed)
        timing["detect"] = round((time.perf_counter() - mark) * 1000, 2)

        files: dict[str, dict[str, Any]] = {}
        texts: dict[str, str] = {}
        outside: list[str] = []
        for path, state in sorted(current.items()):
            if state != "deleted" and (repo.root / path).exists() and not is_readable(repo.root, path):
                outside.append(path)  # DESIGN §11: a symlink to a file outside the repository is never read
                continue
            if state == "deleted":
                if (repo.root / path).exists():  # restored meanwhile (file_paths mode)
                    state = "changed"
                else:
                    files[path] = {"state": "deleted"}
                    continue
            found = _fingerprint(repo.root, path)
            if found is None:  # vanished between detection and reading
                if path in indexed:
                    files[path] = {"state": "deleted"}
                continue
            fingerprint, text = found
            files[path] = {"state": state, **fingerprint}
            texts[path] = text
        extract = [p for p, f in files.items() if f["state"] != "deleted" and (
            p not in before or before[p].get("sha1") != f["sha1"] or before[p]["state"] != f["state"])]
        deleted_now = [p for p, f in files.items() if f["state"] == "deleted" and before.get(p, {}).get("state")
                       != "deleted"]
        dropped = sorted(set(before) - set(files))
        solution = find_solution(repo.root, record.get("solution") or _baseline_solution(baseline))
        revision = max(int(record.get("overlay_revision", 0)), int(previous_meta.get("overlay_revision", 0))) + 1
        refreshed_at = time.time()
        meta = {"workspace_id": workspace_id, "baseline_commit": base, "overlay_revision": revision,
                "refreshed_at": refreshed_at,
                "fingerprints": {p: [f["state"], f.get("sha1"), f.get("mtime_ns"), f.get("size")]
                                 for p, f in files.items()}}
        folder = final.parent
        _clean_temps(folder)
        temp = folder / f".{workspace_id}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
        result = RefreshResult(record, revision, {p: f["state"] for p, f in files.items()},
                               deleted=deleted_now, dropped=dropped, outside=outside)
        mark = time.perf_counter()
        if extract or deleted_now or dropped:
            response = (worker or shared_worker()).request({
                "op": "overlay_refresh", "repo_root": str(repo.root), "solution": str(solution),
                "base_commit": base, "baseline": str(baseline), "previous": str(previous) if previous else None,
                "out": str(temp),
                "state": {"texts": texts, "deleted": sorted(p for p, f in files.items() if f["state"] == "deleted")},
                "extract": extract, "deleted_now": deleted_now, "dropped": dropped,
                "states": {p: f["state"] for p, f in files.items()}, "meta": meta,
            })
            written = response["meta"]
            result.worker_called = True
            result.extracted = response["extracted"]
            result.rebound = response["rebound"]
            result.cold = bool(response["cold"])
            result.load_seconds = float(response["load_seconds"])
            timing["worker"] = round((time.perf_counter() - mark) * 1000, 2)
            timing.update({f"worker_{k}": v for k, v in response["timing_ms"].items()})
        else:  # nothing changed since the last refresh: the same rows, a new revision and fingerprints
            written = _rewrite_meta(baseline, previous, temp, meta)
            timing["rewrite"] = round((time.perf_counter() - mark) * 1000, 2)
        overlay_store.publish(temp, final)
        result.not_in_solution = [p for p in written.get("not_in_solution") or [] if p in files]
        for path in result.not_in_solution:
            files[path]["in_solution"] = False
        record.update(overlay_revision=revision, files=files, rebound=list(written.get("rebound") or []),
                      refreshed_at=_now_iso(refreshed_at), semantic_level=written.get("semantic_level"),
                      solution=solution.relative_to(repo.root).as_posix(),
                      last_refresh={"cold": result.cold, "load_seconds": result.load_seconds,
                                    "extracted": len(result.extracted), "rebound": len(result.rebound),
                                    "ms": round((time.perf_counter() - started) * 1000, 2)})
        _write_record(repo.repo_id, record)
    timing["total"] = round((time.perf_counter() - started) * 1000, 2)
    result.timing_ms = timing
    result.record = record
    return result


def _rewrite_meta(baseline: Path, previous: Path | None, temp: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """A copy of the previous overlay (or an empty one) with new meta."""
    if previous is None:
        return overlay_store.OverlayWriter(temp, baseline, None).finish({**meta, "rebound": []})
    shutil.copyfile(previous, temp)
    conn = sqlite3.connect(temp, isolation_level=None)
    try:
        conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?,?)",
                         [(k, json.dumps(v)) for k, v in meta.items()])
    finally:
        conn.close()
    return overlay_store.read_overlay_meta(temp)


# ---------------------------------------------------------------- reading

@dataclass
class OverlayView:
    """What a query in a workspace reads: the connection and what the envelope says about it."""

    record: dict[str, Any]
    baseline: Path
    conn: sqlite3.Connection
    revision: int
    semantic_level: str | None
    warnings: list[str]
    fingerprints: dict[str, list[Any]] = field(default_factory=dict)


_local = threading.local()
MAX_THREAD_OVERLAYS = 8  # merged connections kept per thread (each holds temp tables of an overlay)


# (repo_id, workspace_id) -> (file identity, connection, overlay meta, whether the connection is ours to close)
def _thread_cache() -> dict[tuple[str, str], tuple[tuple[Any, ...], sqlite3.Connection, dict[str, Any], bool]]:
    cache: dict[tuple[str, str], tuple[tuple[Any, ...], sqlite3.Connection, dict[str, Any], bool]] | None = \
        getattr(_local, "overlays", None)
    if cache is None:
        cache = {}
        _local.overlays = cache
    return cache


def _overlay_connection(repo_id: str, workspace_id: str, baseline: Path,
                        overlay: Path) -> tuple[sqlite3.Connection, dict[str, Any]] | None:
    """The merged connection for this thread, reopened when the overlay or baseline file is replaced
    (atomic renames make a new inode). None when the workspace has no overlay file yet."""
    try:
        ov_stat = overlay.stat()
        base_stat = baseline.stat()
    except FileNotFoundError:
        return None
    key = (ov_stat.st_ino, ov_stat.st_mtime_ns, base_stat.st_ino, base_stat.st_mtime_ns)
    cache = _thread_cache()
    slot = (repo_id, workspace_id)
    cached = cache.get(slot)
    if cached is not None and cached[0] == key:
        cache[slot] = cache.pop(slot)  # most recently used last
        # an empty overlay reads the baseline's own connection, which store/reader may have evicted since
        return (cached[1] if cached[3] else open_baseline(baseline)), cached[2]
    if cached is not None:
        if cached[3]:
            cached[1].close()
        del cache[slot]
    meta = overlay_store.read_overlay_meta(overlay)
    if meta.get("schema_version") != SCHEMA_VERSION:
        raise RoslynMapError(ErrorCode.INDEX_NOT_AVAILABLE,
                             f"Workspace '{workspace_id}' was refreshed by another roslynmap version.",
                             f"Call index_refresh_overlay(workspace_id=\"{workspace_id}\") to rebuild it.")
    if meta.get("baseline_build_id") != overlay_store.baseline_build_id(baseline):
        raise RoslynMapError(ErrorCode.INDEX_NOT_AVAILABLE,
                             f"Workspace '{workspace_id}' was refreshed against an earlier build of its baseline"
                             " (the baseline has been rebuilt since).",
                             f"Call index_refresh_overlay(workspace_id=\"{workspace_id}\") to rebuild it.")
    counts = meta.get("file_counts") or {}
    conn: sqlite3.Connection
    if not any(counts.values()):
        conn, owned = open_baseline(baseline), False  # an empty overlay: the baseline's own connection
    else:
        levels = {int(k): str(v) for k, v in (meta.get("project_levels") or {}).items()}
        conn, owned = overlay_store.open_merged(baseline, overlay, levels), True
    cache[slot] = (key, conn, meta, owned)
    while len(cache) > MAX_THREAD_OVERLAYS:  # least recently opened first: a bounded cache per thread
        _old_key, old_conn, _old_meta, old_owned = cache.pop(next(iter(cache)))
        if old_owned:
            old_conn.close()
    return conn, meta


def close_thread_connections() -> None:
    for _key, conn, _meta, owned in _thread_cache().values():
        if owned:
            conn.close()
    _thread_cache().clear()


_touched: dict[str, float] = {}


def _touch_used(repo_id: str, workspace_id: str) -> None:
    """last_used_at is the record file's mtime, bumped at most every USED_TOUCH_INTERVAL_S."""
    key = f"{repo_id}/{workspace_id}"
    now = time.time()
    if now - _touched.get(key, 0.0) < USED_TOUCH_INTERVAL_S:
        return
    _touched[key] = now
    with contextlib.suppress(OSError):
        os.utime(record_path(repo_id, workspace_id))


_scan_cache: dict[tuple[str, str, int], tuple[float, list[str]]] = {}
_hash_cache: dict[tuple[str, int, int], str] = {}
_stale_lock = threading.Lock()


def _changed_on_disk(root: Path, path: str, fingerprint: list[Any]) -> bool:
    state, sha1, mtime_ns, size = fingerprint
    file = root / path
    try:
        stat = file.stat()
    except FileNotFoundError:
        return bool(state != "deleted")
    if state == "deleted":
        return True
    if (stat.st_mtime_ns, stat.st_size) == (mtime_ns, size):
        return False
    key = (str(file), stat.st_mtime_ns, stat.st_size)
    digest = _hash_cache.get(key)
    if digest is None:
        try:
            digest = hashlib.sha1(file.read_bytes()).hexdigest()
        except OSError:
            return True
        with _stale_lock:
            if len(_hash_cache) > 4096:
                _hash_cache.clear()
            _hash_cache[key] = digest
    return bool(digest != sha1)


def stale_files(root: Path, workspace_id: str, baseline: Path, fingerprints: dict[str, list[Any]],
                since: float, revision: int) -> list[str]:
    """Files changed on disk since the last refresh: the overlay's own files (checked on every call: a
    stat each, a hash only when the stat differs) and the baseline's other files (modified after the
    refresh; scanned at most every STALE_SCAN_INTERVAL_S)."""
    out = [p for p, f in sorted(fingerprints.items()) if _changed_on_disk(root, p, f)]
    key = (str(baseline), workspace_id, revision)
    now = time.monotonic()
    with _stale_lock:
        cached = _scan_cache.get(key)
    if cached is None or now - cached[0] > STALE_SCAN_INTERVAL_S:
        others = []
        since_ns = int(since * 1e9)
        for path in sorted(indexed_paths(baseline) - fingerprints.keys()):
            try:
                if (root / path).stat().st_mtime_ns > since_ns:
                    others.append(path)
            except FileNotFoundError:
                others.append(path)
        with _stale_lock:
            if len(_scan_cache) > 256:
                _scan_cache.clear()
            _scan_cache[key] = (now, others)
    else:
        others = cached[1]
    return out + others


def stale_warning(workspace_id: str, files: list[str]) -> str:
    shown = ", ".join(files[:5]) + (f" (+{len(files) - 5} more)" if len(files) > 5 else "")
    return (f"{len(files)} file(s) changed on disk since workspace '{workspace_id}' was last refreshed: {shown}; "
            f"answers about them may be stale. Call index_refresh_overlay(workspace_id=\"{workspace_id}\").")


def open_view(repo: RepoInfo, workspace_id: str, consistency: str, head: str) -> OverlayView:
    """The connection a query in this workspace reads, with its revision, level and warnings."""
    record = require_record(repo.repo_id, workspace_id)
    _touch_used(repo.repo_id, workspace_id)
    base = record["baseline_commit"]
    baseline = baseline_path(repo.repo_id, base)
    if not baseline.exists():
        raise RoslynMapError(ErrorCode.INDEX_NOT_AVAILABLE,
                             f"Workspace '{workspace_id}' stands on commit {base[:12]}, which has no baseline.",
                             "Call index_ensure_baseline, then workspace_reset(workspace_id=\"" + workspace_id
                             + "\") to stand the workspace on HEAD's baseline.")
    warnings = []
    if head and head != base:
        warnings.append(f"HEAD moved to {head[:12]} since workspace '{workspace_id}' was based on {base[:12]}; "
                        f"call workspace_reset(workspace_id=\"{workspace_id}\") to rebase it.")
    if consistency == "committed":
        return OverlayView(record, baseline, open_baseline(baseline), 0, None, warnings)
    found = _overlay_connection(repo.repo_id, workspace_id, baseline, overlay_path(repo.repo_id, workspace_id))
    meta: dict[str, Any]
    if found is None:
        conn, meta = open_baseline(baseline), {}
        revision = int(record.get("overlay_revision", 0))
        since = _parse_iso(record.get("refreshed_at") or record.get("reset_at") or record.get("created_at"))
    else:
        conn, meta = found
        revision = int(meta.get("overlay_revision", 0))
        since = float(meta.get("refreshed_at") or 0.0)
    fingerprints = meta.get("fingerprints") or {}
    stale = stale_files(repo.root, workspace_id, baseline, fingerprints, since, revision)
    if stale:
        warnings.append(stale_warning(workspace_id, stale))
    return OverlayView(record, baseline, conn, revision, meta.get("semantic_level"), warnings, fingerprints)


def _parse_iso(text: str | None) -> float:
    if not text:
        return 0.0
    try:
        return float(calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        return 0.0
