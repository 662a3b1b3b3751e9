"""Resolves `repo_path` (and a workspace) to the QueryContext a query reads, cheaply enough for every call.

This is the resolving half of query/context.py: it consults git and the workspace layer, so it lives
above query (docs/architecture.md). It never starts a worker: a missing baseline is an error with a hint.
"""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from roslynmap import __version__
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.query.context import QueryContext
from roslynmap.query.paths import repo_relative
from roslynmap.store.reader import open_baseline, read_meta
from roslynmap.store.repo import RepoInfo, fast_head, inspect_repo
from roslynmap.workspace import overlays
from roslynmap.workspace.baselines import require_baseline

_identity_cache: dict[str, RepoInfo] = {}
MAX_IDENTITIES = 256
_lock = threading.Lock()
# What the current tool call answered from (set by open_context, read by mcp/dispatch for meta).
_answered_from: ContextVar[dict[str, Any] | None] = ContextVar("roslynmap_answered_from", default=None)
# The connection the current tool call read (set by open_context), for naming symbols in its answer.
_read_from: ContextVar[sqlite3.Connection | None] = ContextVar("roslynmap_read_from", default=None)


def repo_identity(repo_path: str) -> RepoInfo:
    """Root and repo id never change for a path: computed once (git subprocesses), then cached."""
    with _lock:
        cached = _identity_cache.get(repo_path)
    if cached is not None and cached.root.is_dir():
        return cached
    info = inspect_repo(repo_path)
    with _lock:
        _identity_cache[repo_path] = info
        while len(_identity_cache) > MAX_IDENTITIES:  # many spellings of allowed paths: bounded
            _identity_cache.pop(next(iter(_identity_cache)))
    return info


def begin_call() -> None:
    """Forgets what the previous tool call on this thread answered from."""
    _answered_from.set(None)
    _read_from.set(None)


def read_from() -> sqlite3.Connection | None:
    """The baseline or overlay connection the current call read, if it opened one."""
    return _read_from.get()


def answered_from() -> dict[str, Any] | None:
    """{workspace_id, overlay_revision, consistency} when the current call answered in a workspace."""
    return _answered_from.get()


def note_workspace(workspace_id: str, revision: int, consistency: str = "workspace") -> None:
    """Records that the current call acted on this workspace (its meta says so)."""
    _answered_from.set({"workspace_id": workspace_id, "overlay_revision": revision, "consistency": consistency})


def current_head(repo: RepoInfo) -> str:
    return (fast_head(repo.root) if repo.is_git else None) or repo.commit


def live_repo(repo_path: str) -> RepoInfo:
    """The cached identity with HEAD as it is now."""
    repo = repo_identity(repo_path)
    head = current_head(repo)
    return repo if head == repo.commit else dataclasses.replace(repo, commit=head)


def check_consistency(workspace_id: str | None, consistency: str | None,
                      virtual_files: dict[str, str] | None) -> str:
    """The effective mode: `committed` without a workspace; `workspace` by default with one."""
    if workspace_id is None:
        if consistency in ("workspace", "ephemeral") or virtual_files:
            what = "virtual_files" if virtual_files and consistency != "workspace" else f"consistency=\"{consistency}\""
            raise RoslynMapError(ErrorCode.WORKSPACE_REQUIRED, f"{what} needs a workspace_id.",
                                 "Create one with workspace_create(workspace_id=\"agent-1\") and pass "
                                 "workspace_id=\"agent-1\"; or drop it to query the committed baseline.")
        return "committed"
    overlays.validate_id(workspace_id)
    mode = consistency or ("ephemeral" if virtual_files else "workspace")
    if virtual_files and mode != "ephemeral":
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"virtual_files only apply with consistency=\"ephemeral\""
                             f" (got \"{mode}\").", "Pass consistency=\"ephemeral\" or drop virtual_files.")
    return mode


def open_context(repo_path: str, workspace_id: str | None = None, consistency: str | None = None,
                 virtual_files: dict[str, str] | None = None) -> QueryContext:
    """The baseline for HEAD (or the newest one, with a warning); with a workspace, its overlay on top
    (`workspace`), its baseline alone (`committed`), or its overlay plus `virtual_files` (`ephemeral`)."""
    mode = check_consistency(workspace_id, consistency, virtual_files)
    if workspace_id is not None:
        ctx = _workspace_context(repo_path, workspace_id, mode, virtual_files or {})
        _read_from.set(ctx.conn)
        return ctx
    repo = repo_identity(repo_path)
    head = current_head(repo)
    path, warning = require_baseline(repo, head)
    conn = open_baseline(path)
    _read_from.set(conn)
    meta = _baseline_meta(path, conn)
    warnings = [warning] if warning else []
    if (built_by := meta.get("roslynmap_version")) not in (None, __version__):
        # Answered as the older extractor would; index_ensure_baseline rebuilds it (workspace/baselines.py).
        warnings.append(f"The baseline was built by roslynmap {built_by}, and this is {__version__}: answers miss "
                        "what this version extracts. Call index_ensure_baseline to rebuild it.")
    return QueryContext(repo, head, path, conn, meta, warnings)


def _baseline_meta(path: Path, conn: sqlite3.Connection) -> dict[str, Any]:
    """The baseline's meta, kept on its read connection (a rebuilt baseline is a new connection; an id()
    of a closed one may be reused, so it is no key)."""
    memo: dict[str, Any] | None = getattr(conn, "memo", None)
    if memo is None:
        return read_meta(conn)
    meta: dict[str, Any] | None = memo.get("baseline_meta")
    if meta is None:
        meta = memo["baseline_meta"] = read_meta(conn)
    return meta


def _workspace_context(repo_path: str, workspace_id: str, mode: str, virtual: dict[str, str]) -> QueryContext:
    repo = repo_identity(repo_path)
    head = current_head(repo)
    view = overlays.open_view(repo, workspace_id, mode, head)
    baseline_conn = open_baseline(view.baseline)
    meta = dict(_baseline_meta(view.baseline, baseline_conn))
    if view.semantic_level:
        meta["semantic_level"] = view.semantic_level
    files = {_normalize(repo.root, path): text for path, text in virtual.items()}
    note_workspace(workspace_id, view.revision, mode)
    return QueryContext(repo, head, view.baseline, view.conn, meta, view.warnings, workspace_id, view.revision, files)


def _normalize(root: Path, path: str) -> str:
    return repo_relative(root, path)
