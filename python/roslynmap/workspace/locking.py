"""The per-workspace file lock every change to a workspace runs under, and cleanup of orphaned lock files."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from filelock import FileLock, Timeout

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.workspace.records import lock_path, record_path, require_record, workspaces_dir

LOCK_TIMEOUT_S = 600.0


def _lock(repo_id: str, workspace_id: str) -> FileLock:
    folder = workspaces_dir(repo_id)
    folder.mkdir(parents=True, exist_ok=True)
    return FileLock(str(lock_path(repo_id, workspace_id)), timeout=LOCK_TIMEOUT_S)


@contextlib.contextmanager
def locked(repo_id: str, workspace_id: str, *, existing: bool = True) -> Any:
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
