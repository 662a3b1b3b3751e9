"""Workspaces: an agent's uncommitted edits as an overlay over one baseline (DESIGN §6, §8).

On disk, per repository: `workspaces/<id>.json` (the record: base commit, solution, revision, the
fingerprint of every file the overlay holds) and `workspaces/<id>.db` (the overlay, store/overlay.py).
The record pins its baseline (workspace_users in baselines.py keeps it from index_cleanup).

A refresh runs under a per-workspace file lock: it finds the changed `.cs` files (git, or the paths
given), sends the texts of the whole overlay to the warm worker, which re-extracts only the files
whose text changed since the last refresh plus their dependents, writes the new overlay into a temp
file, and the refresh renames it into place. Readers never see a half-written overlay, two
workspaces refresh independently, and the baseline is only ever opened read-only.

This module is the workspace layer's public face; each job lives in its own module:

- records.py    ids, paths, the record file (read, atomic write)
- locking.py    the per-workspace file lock, orphaned lock cleanup
- lifecycle.py  create, reset, delete, list (summaries)
- changes.py    refresh planning: changed files from git / a scan / given paths, fingerprints
- refresh.py    refresh execution: the worker request, the overlay renamed into place, the record
- views.py      consistency: the connection a workspace query reads, stale-file warnings
"""

from __future__ import annotations

from roslynmap.workspace.changes import RefreshPlan, git_changes, indexed_paths, plan_refresh
from roslynmap.workspace.lifecycle import create, delete, reset, summaries, summary
from roslynmap.workspace.locking import locked, remove_orphan_locks
from roslynmap.workspace.records import (
    ID_PATTERN,
    list_ids,
    not_found,
    overlay_path,
    read_record,
    record_path,
    require_record,
    validate_id,
    workspaces_dir,
)
from roslynmap.workspace.refresh import RefreshResult, refresh
from roslynmap.workspace.views import OverlayView, close_thread_connections, open_view, stale_files, stale_warning

__all__ = [
    "ID_PATTERN", "OverlayView", "RefreshPlan", "RefreshResult", "close_thread_connections", "create", "delete",
    "git_changes", "indexed_paths", "list_ids", "locked", "not_found", "open_view", "overlay_path", "plan_refresh",
    "read_record", "record_path", "refresh", "remove_orphan_locks", "require_record", "reset", "stale_files",
    "stale_warning", "summaries", "summary", "validate_id", "workspaces_dir",
]
