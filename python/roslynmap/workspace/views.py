"""Consistency: what a query in a workspace reads (the merged overlay connection, cached per thread) and
whether files changed on disk since the last refresh (stale warnings)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.store import overlay as overlay_store
from roslynmap.store.paths import baseline_path
from roslynmap.store.reader import open_baseline
from roslynmap.store.repo import RepoInfo
from roslynmap.store.schema import SCHEMA_VERSION
from roslynmap.workspace.changes import indexed_paths
from roslynmap.workspace.records import overlay_path, parse_iso, record_path, require_record

USED_TOUCH_INTERVAL_S = 30.0
# Files outside the overlay are checked for edits at most this often per workspace (a stat per file).
STALE_SCAN_INTERVAL_S = 1.0


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
        since = parse_iso(record.get("refreshed_at") or record.get("reset_at") or record.get("created_at"))
    else:
        conn, meta = found
        revision = int(meta.get("overlay_revision", 0))
        since = float(meta.get("refreshed_at") or 0.0)
    fingerprints = meta.get("fingerprints") or {}
    stale = stale_files(repo.root, workspace_id, baseline, fingerprints, since, revision)
    if stale:
        warnings.append(stale_warning(workspace_id, stale))
    return OverlayView(record, baseline, conn, revision, meta.get("semantic_level"), warnings, fingerprints)
