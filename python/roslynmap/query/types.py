"""types_hierarchy: base types, interfaces, derived types and implementations."""

from __future__ import annotations

import sqlite3
from typing import Any

from roslynmap.query.graph import node_info


def _related(conn: sqlite3.Connection, sql: str, key: str) -> list[tuple[str | None, str]]:
    return [(r[0], r[1]) for r in conn.execute(sql, (key,))]


def _describe(conn: sqlite3.Connection, symbol_id: str | None, name: str, depth: int) -> dict[str, Any]:
    info = node_info(conn, symbol_id) if symbol_id else None
    if info is None:
        # Declared outside the solution (framework or package type): known by id and name only.
        return {"symbol_id": symbol_id, "name": name, "external": True, "depth": depth}
    return {**info, "depth": depth}


def hierarchy(conn: sqlite3.Connection, symbol_id: str, transitive: bool, max_depth: int) -> dict[str, Any]:
    depth_limit = max_depth if transitive else 1
    bases: list[dict[str, Any]] = []
    current, level = symbol_id, 1
    while current and level <= depth_limit:
        found = _related(conn, "SELECT related_id, related_name FROM relations WHERE type_id = ? AND kind = 'base'",
                         current)
        if not found:
            break
        bases.append(_describe(conn, found[0][0], found[0][1], level))
        current, level = found[0][0] or "", level + 1
    interfaces: list[dict[str, Any]] = []
    seen: set[str] = set()
    frontier = [symbol_id] + [b["symbol_id"] for b in bases if b.get("symbol_id")]
    level = 1
    while frontier and level <= depth_limit:
        next_frontier = []
        for type_id in frontier:
            for rel_id, name in _related(
                    conn, "SELECT related_id, related_name FROM relations WHERE type_id = ? AND kind = 'interface'"
                    " ORDER BY related_name", type_id):
                key = rel_id or name
                if key in seen:
                    continue
                seen.add(key)
                interfaces.append(_describe(conn, rel_id, name, level))
                if rel_id:
                    next_frontier.append(rel_id)
        frontier, level = next_frontier, level + 1
    derived = _descendants(conn, symbol_id, "base", depth_limit)
    implementations = _descendants(conn, symbol_id, "interface", depth_limit)
    return {"bases": bases, "interfaces": interfaces, "derived": derived, "implementations": implementations}


def _descendants(conn: sqlite3.Connection, symbol_id: str, kind: str, depth_limit: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen = {symbol_id}
    frontier, level = [symbol_id], 1
    while frontier and level <= depth_limit:
        next_frontier = []
        for type_id in frontier:
            sql = ("SELECT DISTINCT type_id, type_id FROM relations WHERE related_id = ? AND kind = ?"
                   " ORDER BY type_id")
            for child, _ in conn.execute(sql, (type_id, kind)):
                if child in seen:
                    continue
                seen.add(child)
                out.append(_describe(conn, child, child, level))
                next_frontier.append(child)
        if kind == "interface":  # after the level's direct implementers, so those keep their own depth
            for child in next_frontier:
                _inherited(conn, child, level, seen, out)
        frontier, level = next_frontier, level + 1
    return out


def _inherited(conn: sqlite3.Connection, implementer: str, level: int, seen: set[str],
               out: list[dict[str, Any]]) -> None:
    """Every class below an implementing class implements the interface too, however deep (IFoo <- A,
    B : A, C : B gives B at level + 1 and C at level + 2). Relations hold direct bases only, so walk down."""
    frontier = [implementer]
    while frontier:
        level += 1
        next_frontier = []
        for type_id in frontier:
            for (sub,) in conn.execute("SELECT DISTINCT type_id FROM relations WHERE related_id = ? AND kind = 'base'"
                                       " ORDER BY type_id", (type_id,)):
                if sub not in seen:
                    seen.add(sub)
                    out.append({**_describe(conn, sub, sub, level), "inherited": True})
                    next_frontier.append(sub)
        frontier = next_frontier


# The enums a member's declared type names (itself, or a type argument: `List<Status>`): a TypeRef on the
# declaration's line before the member's own name, not one its body or attributes use (`IsPaid => Status == ...`).
# `{where}` selects the members, as `m`.
ENUMS_OF_DECLARED_TYPES = (
    "SELECT DISTINCT t.symbol_id FROM symbols m JOIN ids mk ON mk.symbol_id = m.symbol_id"
    " JOIN refs r ON r.from_key = mk.key AND r.kind = 'TypeRef' AND r.file_id = m.file_id AND r.line = m.line"
    " AND r.col < m.col JOIN ids t ON t.key = r.target_key"
    " JOIN symbols e ON e.symbol_id = t.symbol_id AND e.kind = 'Enum' WHERE {where}")
