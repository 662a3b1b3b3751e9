"""graph_callers / graph_callees: a depth-limited, cycle-safe call graph aware of virtual dispatch.

A call edge is a Call or Instantiate reference, or a Read/Write of a property, indexer or event
(accessors are calls). Callers of a member include the callers of the interface or base member it
implements or overrides (edge `via` that member). A callee reached through an interface or virtual
member lists its known implementations (edge `via` the dispatched member).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

CALL_EDGE = (
    "(r.kind IN ('Call', 'Instantiate') OR (r.kind IN ('Read', 'Write')"
    " AND r.target_kind IN ('Property', 'Indexer', 'Event')))"
)


@dataclass
class Graph:
    root: dict[str, Any]
    nodes: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    truncated_levels: dict[int, int] = field(default_factory=dict)
    external_callees: int = 0


def node_info(conn: sqlite3.Connection, symbol_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT s.symbol_id, s.name, s.kind, f.path, s.line, s.container_id FROM symbols s"
        " LEFT JOIN files f ON f.id = s.file_id WHERE s.symbol_id = ? ORDER BY s.project_id LIMIT 1", (symbol_id,)
    ).fetchone()
    if row is None:
        return None
    return {"symbol_id": row[0], "name": row[1], "kind": row[2], "file": row[3], "line": row[4]}


def _callers_of(conn: sqlite3.Connection, symbol_id: str) -> list[tuple[str, str, int, int, str | None]]:
    """(caller id, edge kind, count, first line, first file) of direct callers."""
    return [(r[0], r[1], r[2], r[3], r[4]) for r in conn.execute(
        f"SELECT r.from_id, r.kind, count(*), min(r.line), min(f.path) FROM refs r LEFT JOIN files f"
        f" ON f.id = r.file_id WHERE r.target_id = ? AND {CALL_EDGE} AND r.from_id IS NOT NULL"
        f" GROUP BY r.from_id, r.kind ORDER BY r.from_id", (symbol_id,))]


def _dispatched_from(conn: sqlite3.Connection, symbol_id: str) -> list[str]:
    """Interface/base members that `symbol_id` implements or overrides (transitively up the chain)."""
    seen: list[str] = []
    frontier = [symbol_id]
    while frontier:
        current = frontier.pop()
        for (target,) in conn.execute(
            "SELECT DISTINCT target_id FROM refs WHERE from_id = ? AND kind IN ('Implementation', 'Override')"
            " AND target_id IS NOT NULL", (current,)):
            if target not in seen and target != symbol_id:
                seen.append(target)
                frontier.append(target)
    return seen


def implementations_of(conn: sqlite3.Connection, symbol_id: str) -> list[str]:
    """Members implementing or overriding `symbol_id`, transitively down the chain."""
    found: list[str] = []
    frontier = [symbol_id]
    while frontier:
        current = frontier.pop()
        for (source,) in conn.execute(
            "SELECT DISTINCT from_id FROM refs WHERE target_id = ? AND kind IN ('Implementation', 'Override')"
            " AND from_id IS NOT NULL", (current,)):
            if source not in found and source != symbol_id:
                found.append(source)
                frontier.append(source)
    return found


def callers(conn: sqlite3.Connection, symbol_id: str, depth: int, limit_per_level: int) -> Graph:
    root = node_info(conn, symbol_id) or {"symbol_id": symbol_id}
    graph = Graph(root)
    visited = {symbol_id}
    frontier = [symbol_id]
    for level in range(1, depth + 1):
        next_frontier: list[str] = []
        level_nodes = 0
        for callee in frontier:
            sources = [(callee, None)] + [(base, base) for base in _dispatched_from(conn, callee)]
            for target, via in sources:
                for caller, kind, count, line, file in _callers_of(conn, target):
                    edge: dict[str, Any] = {"from": caller, "to": callee, "kind": kind, "count": count,
                                            "file": file, "line": line}
                    if via:
                        edge["via"] = via
                    graph.edges.append(edge)
                    if caller in visited:
                        continue
                    if level_nodes >= limit_per_level:
                        graph.truncated_levels[level] = graph.truncated_levels.get(level, 0) + 1
                        continue
                    visited.add(caller)
                    level_nodes += 1
                    info = node_info(conn, caller) or {"symbol_id": caller}
                    graph.nodes.append({**info, "depth": level})
                    next_frontier.append(caller)
        frontier = next_frontier
        if not frontier:
            break
    return graph


def callees(conn: sqlite3.Connection, symbol_id: str, depth: int, limit_per_level: int) -> Graph:
    root = node_info(conn, symbol_id) or {"symbol_id": symbol_id}
    graph = Graph(root)
    visited = {symbol_id}
    frontier = [symbol_id]
    for level in range(1, depth + 1):
        next_frontier: list[str] = []
        level_nodes = 0
        for caller in frontier:
            rows = conn.execute(
                f"SELECT r.target_id, r.target_name, r.kind, count(*), min(r.line), min(f.path) FROM refs r"
                f" LEFT JOIN files f ON f.id = r.file_id WHERE r.from_id = ? AND {CALL_EDGE}"
                f" GROUP BY r.target_id, r.target_name, r.kind ORDER BY min(r.line)", (caller,)).fetchall()
            for target, name, kind, count, line, file in rows:
                if kind == "Instantiate" and target and target.startswith("T:"):
                    continue  # `new T()` is also recorded against the constructor: keep one edge
                info = node_info(conn, target) if target else None
                if target and info is None:
                    graph.external_callees += 1
                    continue
                key = target or f"?{name}"
                edge: dict[str, Any] = {"from": caller, "to": key, "kind": kind, "count": count,
                                        "file": file, "line": line}
                graph.edges.append(edge)
                targets = [(key, info, None)]
                if target:
                    targets += [(impl, node_info(conn, impl), target) for impl in implementations_of(conn, target)]
                for node_id, node, via in targets:
                    if via:
                        graph.edges.append({"from": caller, "to": node_id, "kind": "Dispatch", "via": via,
                                            "count": count, "file": file, "line": line})
                    if node_id in visited:
                        continue
                    if level_nodes >= limit_per_level:
                        graph.truncated_levels[level] = graph.truncated_levels.get(level, 0) + 1
                        continue
                    visited.add(node_id)
                    level_nodes += 1
                    if node is None:
                        graph.nodes.append({"symbol_id": None, "name": name, "unresolved": True, "depth": level})
                        continue
                    graph.nodes.append({**node, "depth": level})
                    next_frontier.append(node_id)
        frontier = next_frontier
        if not frontier:
            break
    return graph
