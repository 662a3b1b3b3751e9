"""Ids several projects declare: one key in refs, several members.

Every top-level Program's `<Main>$` has one documentation id, and so has a global-namespace `Extensions` class
each service of a solution declares (eShop: `Extensions.AddApplicationServices` in seven projects). A reference
from project P to such an id names P's own declaration when P has one, else the declaration of a project P
references (directly or not). A walk that follows one declaration keeps only the references that name it:
WebApp's Program does not reach Ordering.API's `AddApplicationServices` because both are spelled alike.

Invariant: ids declared in one project (nearly all) are never restricted, so a walk over them is unchanged; what
is asked is looked up by key on the indexes (never a scan of symbols), and remembered per connection.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from roslynmap.query.sql import in_chunks, memo


class SharedIds:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._declared: dict[int, frozenset[int]] = {}    # key -> its declaring projects (asked keys only)
        self._by_id: dict[str, bool] = {}                 # symbol id -> declared in several projects
        self._depends: dict[int, frozenset[int]] | None = None

    def declared_in(self, keys: Iterable[int]) -> dict[int, frozenset[int]]:
        """Of `keys`, those several projects declare, with the projects."""
        wanted = list(dict.fromkeys(keys))
        missing = [k for k in wanted if k not in self._declared]
        found: dict[int, set[int]] = {}
        for key, project in in_chunks(self._conn, "SELECT i.key, s.project_id FROM ids i JOIN symbols s"
                                      " ON s.symbol_id = i.symbol_id WHERE i.key IN ({marks})", missing):
            found.setdefault(int(key), set()).add(int(project))
        for key in missing:
            self._declared[key] = frozenset(found.get(key, ()))
        return {k: self._declared[k] for k in wanted if len(self._declared[k]) > 1}

    def shared(self, symbol_ids: Iterable[str]) -> set[str]:
        """Of `symbol_ids`, those several projects declare."""
        wanted = list(dict.fromkeys(symbol_ids))
        missing = [s for s in wanted if s not in self._by_id]
        several = {str(r[0]) for r in in_chunks(self._conn, "SELECT symbol_id FROM symbols WHERE symbol_id IN ({marks})"
                                                " GROUP BY symbol_id HAVING count(DISTINCT project_id) > 1", missing)}
        for symbol_id in missing:
            self._by_id[symbol_id] = symbol_id in several
        return {s for s in wanted if self._by_id[s]}

    def declaration_seen(self, key: int, project: int) -> set[int]:
        """The declaring projects whose `key` a reference from `project` names: its own, else those it references."""
        declaring = self.declared_in([key]).get(key, frozenset())
        return {project} if project in declaring else set(declaring & self._depends_on().get(project, frozenset()))

    def seeing(self, key: int, declarations: Iterable[int]) -> set[int]:
        """The projects whose references to `key` name one of `declarations` (declaring projects)."""
        wanted = set(declarations)
        declaring = self.declared_in([key]).get(key, frozenset())
        depends = self._depends_on()
        return {p for p in depends if (p in wanted if p in declaring else bool(depends[p] & wanted))}

    def _depends_on(self) -> dict[int, frozenset[int]]:
        """Project -> every project it references, transitively (every project is a key)."""
        if self._depends is None:
            direct: dict[int, set[int]] = {}
            for project, target in self._conn.execute("SELECT project_id, target_project_id FROM project_deps"
                                                      " WHERE kind = 'project' AND target_project_id IS NOT NULL"):
                direct.setdefault(int(project), set()).add(int(target))
            projects = [int(r[0]) for r in self._conn.execute("SELECT id FROM projects")]
            self._depends = {p: frozenset(_closure(p, direct)) for p in projects}
        return self._depends


def declarations(conn: sqlite3.Connection, symbol_id: str) -> dict[str, tuple[str, int]]:
    """File -> (project, line) of each declaration of an id: several for an id more than one project declares."""
    from roslynmap.query import symbols  # imported here: symbols imports surfaces, which imports graph and this

    return {str(r["file"]): (str(r["project"]), int(r["line"] or 0))
            for r in symbols.rows_where(conn, "s.symbol_id", symbol_id, None) if r["file"]}


def shared_ids(conn: sqlite3.Connection) -> SharedIds:
    return memo(conn, "shared_ids", lambda: SharedIds(conn))


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
