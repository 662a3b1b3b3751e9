"""Resolves `repo_path` to the baseline a query reads, cheaply enough for every call."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.store.reader import open_baseline, read_meta
from roslynmap.store.repo import RepoInfo, fast_head, inspect_repo
from roslynmap.workspace.baselines import require_baseline

_identity_cache: dict[str, RepoInfo] = {}
_meta_cache: dict[str, dict[str, Any]] = {}
_lock = threading.Lock()


@dataclass
class QueryContext:
    repo: RepoInfo
    head: str
    baseline: Path
    conn: sqlite3.Connection
    meta: dict[str, Any]
    warnings: list[str] = field(default_factory=list)

    @property
    def root(self) -> Path:
        return self.repo.root

    @property
    def commit(self) -> str:
        return str(self.meta.get("commit") or self.baseline.stem)

    @property
    def semantic_level(self) -> str:
        return str(self.meta.get("semantic_level", "syntax_only"))


def repo_identity(repo_path: str) -> RepoInfo:
    """Root and repo id never change for a path: computed once (git subprocesses), then cached."""
    with _lock:
        cached = _identity_cache.get(repo_path)
    if cached is not None and cached.root.is_dir():
        return cached
    info = inspect_repo(repo_path)
    with _lock:
        _identity_cache[repo_path] = info
    return info


def open_context(repo_path: str, workspace_id: str | None = None, consistency: str | None = None) -> QueryContext:
    """The baseline for HEAD (or the newest one, with a warning); with a workspace, its overlay on top."""
    if workspace_id:
        raise RoslynMapError(ErrorCode.WORKSPACE_NOT_FOUND, f"No workspace '{workspace_id}'.",
                             "Create it with workspace_create.")
    repo = repo_identity(repo_path)
    head = (fast_head(repo.root) if repo.is_git else None) or repo.commit
    path, warning = require_baseline(repo, head)
    conn = open_baseline(path)
    key = str(path)
    meta = _meta_cache.get(key)
    if meta is None or meta.get("_db_id") != id(conn):
        meta = {**read_meta(conn), "_db_id": id(conn)}
        _meta_cache[key] = meta
    return QueryContext(repo, head, path, conn, meta, [warning] if warning else [])
