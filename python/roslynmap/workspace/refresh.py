"""Refresh execution: under the workspace lock, plans the changes (changes.py), sends the overlay's texts
to the warm worker, which writes the new overlay into a temp file, renamed into place; then the record."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.roslyn.client import WorkerClient
from roslynmap.roslyn.discovery import find_solution
from roslynmap.store import overlay as overlay_store
from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import RepoInfo
from roslynmap.store.schema import SCHEMA_VERSION
from roslynmap.workspace.baselines import shared_worker
from roslynmap.workspace.changes import plan_refresh
from roslynmap.workspace.locking import locked
from roslynmap.workspace.records import baseline_solution, now_iso, overlay_path, require_record, write_record

STALE_TEMP_S = 3600.0


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
    with locked(repo.repo_id, workspace_id):
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
        mark = time.perf_counter()
        plan = plan_refresh(repo, base, baseline, before, file_paths)
        timing["detect"] = round((time.perf_counter() - mark) * 1000, 2)
        files, texts = plan.files, plan.texts
        extract, deleted_now, dropped, outside = plan.extract, plan.deleted_now, plan.dropped, plan.outside
        solution = find_solution(repo.root, record.get("solution") or baseline_solution(baseline))
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
                      refreshed_at=now_iso(refreshed_at), semantic_level=written.get("semantic_level"),
                      solution=solution.relative_to(repo.root).as_posix(),
                      last_refresh={"cold": result.cold, "load_seconds": result.load_seconds,
                                    "extracted": len(result.extracted), "rebound": len(result.rebound),
                                    "ms": round((time.perf_counter() - started) * 1000, 2)})
        write_record(repo.repo_id, record)
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
