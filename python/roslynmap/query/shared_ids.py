"""Ids several projects declare: one key in refs, several members.

Every top-level Program's `<Main>$` has one documentation id, and so has a global-namespace `Extensions` class
each service of a solution declares (eShop: `Extensions.AddApplicationServices` in seven projects). A reference
from project P to such an id names P's own declaration when P has one, else the declaration of a project P
references (directly or not). A walk that follows one declaration keeps only the references that name it:
WebApp's Program does not reach Ordering.API's `AddApplicationServices` because both are spelled alike.

Invariant: ids declared in one project (nearly all) are never restricted, so a walk over them is unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from roslynmap.query.sql import memo


@dataclass(frozen=True)
class SharedIds:
    declared_in: dict[int, frozenset[int]]   # key -> the projects declaring it (keys with two or more only)
    depends_on: dict[int, frozenset[int]]    # project -> every project it references, transitively
    projects: frozenset[int]
    symbol_ids: frozenset[str]               # the ids themselves

    def declaration_seen(self, key: int, project: int) -> set[int]:
        """The declaring projects whose `key` a reference from `project` names: its own, else those it references."""
        declaring = self.declared_in.get(key, frozenset())
        return {project} if project in declaring else set(declaring & self.depends_on.get(project, frozenset()))

    def seeing(self, key: int, declarations: Iterable[int]) -> set[int]:
        """The projects whose references to `key` name one of `declarations` (declaring projects)."""
        wanted = set(declarations)
        declaring = self.declared_in.get(key, frozenset())
        return {p for p in self.projects
                if (p in wanted if p in declaring else bool(self.depends_on.get(p, frozenset()) & wanted))}


def shared_ids(conn: sqlite3.Connection) -> SharedIds:
    return memo(conn, "shared_ids", lambda: _load(conn))


def _load(conn: sqlite3.Connection) -> SharedIds:
    declared: dict[int, frozenset[int]] = {}
    ids: set[str] = set()
    for symbol_id, key, projects in conn.execute(
            "SELECT s.symbol_id, i.key, group_concat(DISTINCT s.project_id) FROM symbols s LEFT JOIN ids i"
            " ON i.symbol_id = s.symbol_id GROUP BY s.symbol_id HAVING count(DISTINCT s.project_id) > 1"):
        ids.add(str(symbol_id))
        if key is not None:
            declared[int(key)] = frozenset(int(p) for p in str(projects).split(","))
    direct: dict[int, set[int]] = {}
    for project, target in conn.execute("SELECT project_id, target_project_id FROM project_deps"
                                        " WHERE kind = 'project' AND target_project_id IS NOT NULL"):
        direct.setdefault(int(project), set()).add(int(target))
    projects = frozenset(int(r[0]) for r in conn.execute("SELECT id FROM projects"))
    return SharedIds(declared, {p: frozenset(_closure(p, direct)) for p in projects}, projects, frozenset(ids))


def _closure(project: int, direct: dict[int, set[int]]) -> set[int]:
    seen: set[int] = set()
    stack = list(direct.get(project, ()))
    while stack:
        p = stack.pop()
        if p not in seen:
            seen.add(p)
            stack.extend(direct.get(p, ()))
    return seen


def restriction(allowed: dict[int, set[int]], column: str = "target_key") -> tuple[str, list[Any]]:
    """SQL (` AND ...`, on refs aliased `r`) keeping, for each restricted key in `column` (target_key: a callee
    walked back; from_key: a caller walked forward), only the references from the projects allowed for it; other
    keys are untouched. Empty when nothing is restricted."""
    if not allowed:
        return "", []
    keys = sorted(allowed)
    parts = [f"(r.{column} = ? AND r.project_id IN ({','.join('?' * len(allowed[k]))}))" if allowed[k]
             else "0" for k in keys]
    args: list[Any] = [*keys]
    for k in keys:
        args.extend([k, *sorted(allowed[k])] if allowed[k] else [])
    return f" AND (r.{column} NOT IN ({','.join('?' * len(keys))}) OR {' OR '.join(parts)})", args
