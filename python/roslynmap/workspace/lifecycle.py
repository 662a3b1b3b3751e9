"""Create, reset, delete and list workspaces (each under its lock)."""

from __future__ import annotations

from typing import Any

from roslynmap.roslyn.discovery import find_solution
from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import RepoInfo
from roslynmap.workspace.locking import locked, remove_orphan_locks
from roslynmap.workspace.records import (
    list_ids,
    now_iso,
    overlay_path,
    read_record,
    record_path,
    require_record,
    validate_id,
    write_record,
)


def create(repo: RepoInfo, workspace_id: str, solution_path: str | None = None) -> tuple[dict[str, Any], bool]:
    """(record, created). Idempotent: an existing workspace is returned as it is. The workspace stands on
    HEAD's baseline (which may not be built yet: refreshing then says INDEX_NOT_AVAILABLE)."""
    validate_id(workspace_id)
    with locked(repo.repo_id, workspace_id, existing=False):
        existing = read_record(repo.repo_id, workspace_id)
        if existing is not None:
            return existing, False
        solution = None
        if solution_path:
            solution = find_solution(repo.root, solution_path).relative_to(repo.root).as_posix()
        record: dict[str, Any] = {
            "workspace_id": workspace_id, "repo_id": repo.repo_id, "repo_root": str(repo.root),
            "baseline_commit": repo.commit, "solution": solution, "created_at": now_iso(),
            "overlay_revision": 0, "refreshed_at": None, "semantic_level": None, "files": {}, "rebound": [],
        }
        write_record(repo.repo_id, record)
        return record, True


def reset(repo: RepoInfo, workspace_id: str) -> tuple[dict[str, Any], list[str]]:
    """Drops the overlay and stands the workspace on HEAD's baseline (when one exists; else it keeps its
    base, with a warning). The revision still increments: it names a new state."""
    with locked(repo.repo_id, workspace_id):
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
                      refreshed_at=None, semantic_level=None, last_refresh=None, reset_at=now_iso())
        write_record(repo.repo_id, record)
        return record, warnings


def delete(repo: RepoInfo, workspace_id: str) -> dict[str, Any]:
    with locked(repo.repo_id, workspace_id):
        record = require_record(repo.repo_id, workspace_id)
        overlay_path(repo.repo_id, workspace_id).unlink(missing_ok=True)
        record_path(repo.repo_id, workspace_id).unlink(missing_ok=True)
    # locked removed the lock file (the record is gone)
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
        "last_used_at": now_iso(used) if used else None,
    }


def summaries(repo: RepoInfo) -> list[dict[str, Any]]:
    remove_orphan_locks(repo.repo_id)
    out = []
    for workspace_id in list_ids(repo.repo_id):
        record = read_record(repo.repo_id, workspace_id)
        if record is not None and isinstance(record.get("baseline_commit"), str):
            out.append(summary(repo, {**record, "workspace_id": workspace_id}))
    return out
