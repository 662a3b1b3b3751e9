"""graph_callers / graph_callees: a depth-limited, cycle-safe call graph aware of virtual dispatch.

A call edge is a Call or Instantiate reference, or a Read/Write of a property, indexer or event
(accessors are calls). Callers of a member include the callers of the interface or base member it
implements or overrides (edge `via` that member). A callee reached through an interface or virtual
member lists its known implementations (edge kind `Dispatch`, `via` the member).

Every level is answered with a constant number of set-based queries (`IN (...)`), never one
query per node: a depth-3 walk over a hub method touches hundreds of nodes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

CALL_EDGE = (
    "(r.kind IN ('Call', 'Instantiate') OR (r.kind IN ('Read', 'Write')"
    " AND r.target_kind IN ('Property', 'Indexer', 'Event')))"
)
DISPATCH_KINDS = "('Implementation', 'Override')"
CHUNK = 500


@dataclass
class Graph:
    root: dict[str, Any]
    nodes: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    truncated_levels: dict[int, int] = field(default_factory=dict)
    external_callees: int = 0


def _chunks(values: Iterable[Any]) -> Iterator[list[Any]]:
    items = list(values)
    for start in range(0, len(items), CHUNK):
        yield items[start:start + CHUNK]


def _in_chunks(conn: sqlite3.Connection, sql: str, ids: Iterable[Any]) -> list[Any]:
    """Runs `sql` (with a `{marks}` placeholder inside `IN (...)`) over ids, 500 at a time."""
    rows: list[Any] = []
    for chunk in _chunks(ids):
        rows.extend(conn.execute(sql.format(marks=",".join("?" * len(chunk))), chunk))
    return rows


def nodes_info(conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Name, kind and location of each id declared in the solution (first project wins)."""
    rows = _in_chunks(conn, "SELECT s.symbol_id, s.name, s.kind, f.path, s.line FROM symbols s LEFT JOIN files f"
                      " ON f.id = s.file_id WHERE s.symbol_id IN ({marks}) ORDER BY s.project_id DESC", set(ids))
    return {r[0]: {"symbol_id": r[0], "name": r[1], "kind": r[2], "file": r[3], "line": r[4]} for r in rows}


def node_info(conn: sqlite3.Connection, symbol_id: str) -> dict[str, Any] | None:
    return nodes_info(conn, [symbol_id]).get(symbol_id)


def _follow(conn: sqlite3.Connection, start: Iterable[str], upward: bool) -> dict[str, list[str]]:
    """Transitive Implementation/Override closure: for each start id, the members it implements or
    overrides (upward) or the members implementing/overriding it (downward)."""
    src, dst = ("from_id", "target_id") if upward else ("target_id", "from_id")
    result: dict[str, list[str]] = {s: [] for s in start}
    reach: dict[str, set[str]] = {s: {s} for s in result}
    frontier = {s: s for s in result}  # reached id -> the start it belongs to
    while frontier:
        next_frontier: dict[str, str] = {}
        for a, b in _in_chunks(conn, f"SELECT DISTINCT {src}, {dst} FROM refs WHERE {src} IN ({{marks}})"
                               f" AND kind IN {DISPATCH_KINDS} AND {dst} IS NOT NULL", frontier):
            origin = frontier[a]
            if b not in reach[origin]:
                reach[origin].add(b)
                result[origin].append(b)
                next_frontier[b] = origin
        frontier = next_frontier
    return result


def _edges_into(
    conn: sqlite3.Connection, targets: Iterable[str], callers: Iterable[str]
) -> list[tuple[str, str, str, int, int]]:
    """(target, caller, kind, count, first ref id) for call edges from `callers` into `targets`."""
    wanted = set(callers)
    if not wanted:
        return []
    caller_marks = ",".join("?" * len(wanted))
    rows: list[tuple[str, str, str, int, int]] = []
    for chunk in _chunks(targets):
        rows.extend(conn.execute(
            f"SELECT r.target_id, r.from_id, r.kind, count(*), min(r.id) FROM refs r WHERE r.target_id IN"
            f" ({','.join('?' * len(chunk))}) AND {CALL_EDGE} AND r.from_id IN ({caller_marks})"
            f" GROUP BY r.target_id, r.from_id, r.kind", [*chunk, *sorted(wanted)]))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    return rows


def _ranked_callers(
    conn: sqlite3.Connection, targets: list[str], visited: set[str], limit: int
) -> tuple[list[str], int]:
    """Up to `limit` new callers of `targets`, most calls first, and how many new callers exist in all.

    Ranking and counting happen in SQLite: a hub method's thousands of callers never become Python rows."""
    counts: dict[str, int] = {}
    if len(targets) <= CHUNK:
        # One scan: the window columns count all distinct callers and the already-visited ones.
        seen = sorted(visited)
        rows = conn.execute(
            f"SELECT r.from_id, count(*) c, count(*) OVER (), sum(r.from_id IN ({','.join('?' * len(seen))})) OVER ()"
            f" FROM refs r WHERE r.target_id IN ({','.join('?' * len(targets))}) AND {CALL_EDGE}"
            f" AND r.from_id IS NOT NULL GROUP BY r.from_id ORDER BY c DESC, r.from_id LIMIT ?",
            [*seen, *targets, limit + len(visited)]).fetchall()
        fresh = [r[0] for r in rows if r[0] not in visited][:limit]
        return fresh, int(rows[0][2]) - int(rows[0][3] or 0) if rows else 0
    for caller, count in _in_chunks(conn, f"SELECT r.from_id, count(*) FROM refs r WHERE r.target_id IN ({{marks}})"
                                          f" AND {CALL_EDGE} AND r.from_id IS NOT NULL GROUP BY r.from_id", targets):
        counts[caller] = counts.get(caller, 0) + count
    ranked = sorted((c for c in counts if c not in visited), key=lambda c: (-counts[c], c))
    return ranked[:limit], len(ranked)


def _locate(conn: sqlite3.Connection, edges: list[dict[str, Any]]) -> None:
    """Replaces each edge's `ref` (a refs row id) with the file and line of that first reference."""
    rows = _in_chunks(conn, "SELECT r.id, f.path, r.line FROM refs r LEFT JOIN files f ON f.id = r.file_id"
                      " WHERE r.id IN ({marks})", [e["ref"] for e in edges])
    where: dict[int, tuple[str, int]] = {r[0]: (r[1], r[2]) for r in rows}
    for edge in edges:
        edge["file"], edge["line"] = where.get(edge.pop("ref"), (None, None))


def _edges_out_of(
    conn: sqlite3.Connection, callers: Iterable[str]
) -> list[tuple[str, str | None, str, str, int, int, str]]:
    """(caller, target or None, target name, kind, count, first line, first file) for call edges out."""
    rows: list[tuple[str, str | None, str, str, int, int, str]] = _in_chunks(
        conn, f"SELECT r.from_id, r.target_id, r.target_name, r.kind, count(*), min(r.line), min(f.path) FROM refs r"
        f" LEFT JOIN files f ON f.id = r.file_id WHERE r.from_id IN ({{marks}}) AND {CALL_EDGE}"
        f" GROUP BY r.from_id, r.target_id, r.target_name, r.kind", callers)
    rows.sort(key=lambda r: (r[0], r[5], r[2]))
    return rows


class _Level:
    """Admits new nodes into one level, up to the per-level limit, counting what it leaves out."""

    def __init__(self, graph: Graph, visited: set[str], depth: int, limit: int) -> None:
        self.graph, self.visited, self.depth, self.limit = graph, visited, depth, limit
        self.admitted: list[str] = []

    def admit(self, node_id: str) -> bool:
        if node_id in self.visited:
            return False
        if len(self.admitted) >= self.limit:
            self.graph.truncated_levels[self.depth] = self.graph.truncated_levels.get(self.depth, 0) + 1
            return False
        self.visited.add(node_id)
        self.admitted.append(node_id)
        return True


def callers(conn: sqlite3.Connection, symbol_id: str, depth: int, limit_per_level: int) -> Graph:
    graph = Graph(node_info(conn, symbol_id) or {"symbol_id": symbol_id})
    visited = {symbol_id}
    frontier = [symbol_id]
    for level in range(1, depth + 1):
        dispatched = _follow(conn, frontier, upward=True)
        # target -> (the frontier member it stands for, via)
        targets: dict[str, list[tuple[str, str | None]]] = {}
        for callee in frontier:
            targets.setdefault(callee, []).append((callee, None))
            for base in dispatched[callee]:
                targets.setdefault(base, []).append((callee, base))
        fresh, available = _ranked_callers(conn, list(targets), visited, limit_per_level)
        if available > len(fresh):
            graph.truncated_levels[level] = available - len(fresh)
        described = set(fresh) | visited  # edges only between nodes the graph shows
        visited.update(fresh)
        kept: list[dict[str, Any]] = []
        for target, caller, kind, count, first_ref in _edges_into(conn, targets, described):
            for callee, via in targets[target]:
                edge: dict[str, Any] = {"from": caller, "to": callee, "kind": kind, "count": count, "ref": first_ref}
                if via:
                    edge["via"] = via
                kept.append(edge)
        _locate(conn, kept)
        graph.edges.extend(kept)
        info = nodes_info(conn, fresh)
        graph.nodes.extend({**info.get(n, {"symbol_id": n}), "depth": level} for n in fresh)
        frontier = fresh
        if not frontier:
            break
    return graph


def callees(conn: sqlite3.Connection, symbol_id: str, depth: int, limit_per_level: int) -> Graph:
    graph = Graph(node_info(conn, symbol_id) or {"symbol_id": symbol_id})
    visited = {symbol_id}
    frontier = [symbol_id]
    for level in range(1, depth + 1):
        rows = [r for r in _edges_out_of(conn, frontier)
                # `new T()` is recorded against the type and the constructor: keep the constructor edge.
                if not (r[3] == "Instantiate" and r[1] and r[1].startswith("T:"))]
        targets = {r[1] for r in rows if r[1]}
        info = nodes_info(conn, targets)
        implementations = _follow(conn, [t for t in targets if t in info], upward=False)
        info.update(nodes_info(conn, {i for impls in implementations.values() for i in impls}))
        admitted = _Level(graph, visited, level, limit_per_level)
        unresolved: dict[str, dict[str, Any]] = {}
        for caller, target, name, kind, count, line, file in rows:
            if target and target not in info:
                graph.external_callees += 1
                continue
            key = target or f"?{name}"
            graph.edges.append({"from": caller, "to": key, "kind": kind, "count": count, "file": file, "line": line})
            if target is None:
                if admitted.admit(key):
                    unresolved[key] = {"symbol_id": None, "name": name, "unresolved": True}
                continue
            admitted.admit(target)
            for impl in implementations.get(target, []):
                graph.edges.append({"from": caller, "to": impl, "kind": "Dispatch", "via": target,
                                    "count": count, "file": file, "line": line})
                admitted.admit(impl)
        for node_id in admitted.admitted:
            graph.nodes.append({**(info.get(node_id) or unresolved[node_id]), "depth": level})
        frontier = [n for n in admitted.admitted if n in info]
        if not frontier:
            break
    return graph
