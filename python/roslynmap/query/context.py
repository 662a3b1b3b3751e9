"""What a query reads: one open baseline (or a workspace's overlay view on top of it) and its meta.

Queries receive a QueryContext; they never resolve one. Finding the baseline for a path (and a
workspace's overlay) belongs to the caller above (mcp/context.py), since it may consult git and
the workspace layer.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roslynmap.store.repo import RepoInfo


@dataclass
class QueryContext:
    repo: RepoInfo
    head: str
    baseline: Path
    conn: sqlite3.Connection
    meta: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    workspace_id: str | None = None
    overlay_revision: int = 0
    virtual_files: dict[str, str] = field(default_factory=dict)  # ephemeral: repo-relative path -> content

    @property
    def root(self) -> Path:
        return self.repo.root

    @property
    def commit(self) -> str:
        return str(self.meta.get("commit") or self.baseline.stem)

    @property
    def semantic_level(self) -> str:
        return str(self.meta.get("semantic_level", "syntax_only"))
