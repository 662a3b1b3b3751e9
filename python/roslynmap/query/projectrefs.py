"""Project references between the solution's projects (project_deps rows of kind 'project'), and what a set
of projects reaches through them."""

from __future__ import annotations

import sqlite3
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def file_projects(conn: sqlite3.Connection, paths: Iterable[str | None]) -> dict[str, int]:
    """Path -> the id of the project compiling it (one of them, for a file several projects compile), for the
    given paths the index holds."""
    wanted = sorted({p for p in paths if p})
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    return {str(path): int(project) for path, project in conn.execute(
        f"SELECT path, project_id FROM files WHERE project_id IS NOT NULL AND path IN ({marks})", wanted)}


def project_references(conn: sqlite3.Connection) -> dict[int, set[int]]:
    """Project id -> the ids of the projects it references directly."""
    edges: dict[int, set[int]] = {}
    for source, target in conn.execute("SELECT project_id, target_project_id FROM project_deps"
                                       " WHERE kind = 'project' AND target_project_id IS NOT NULL"):
        edges.setdefault(source, set()).add(target)
    return edges


def referenced(edges: Mapping[K, Iterable[K]], starts: Iterable[K]) -> set[K]:
    """What `starts` reach through `edges`, directly or not (the starts themselves only when reached): the projects
    they reference; any other closure (a middleware helper's helpers, the nodes above one in a trace)."""
    reached: set[K] = set()
    frontier = list(starts)
    while frontier:
        for target in edges.get(frontier.pop(), ()):
            if target not in reached:
                reached.add(target)
                frontier.append(target)
    return reached
