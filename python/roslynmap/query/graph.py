"""graph_callers / graph_callees: a depth-limited, cycle-safe call graph aware of virtual dispatch.

A call edge is a Call, ImplicitCall (foreach, await, using... calling a member of the solution) or
Instantiate reference, or a Read/Write of a property, indexer or event (accessors are calls); an
implicit call's edge keeps its kind, `ImplicitCall`. Callers of a member include the callers of the
interface or base member it implements or overrides (edge `via` that member), less those whose receiver rules it
out (query/dispatch.py: `base.` runs no override, `this` only its own class line's, and a member reached only on
`this` for an override runs it only for a receiver typed as that override's class line). A callee reached
through an interface or virtual member lists its known implementations (edge kind `Dispatch`, `via`
the member). Both ways, an implementation runs only in a process loading it and the caller (query/projectrefs.py
Processes), and the processes a walk went through carry along it (`hosts`).

Every level is answered with a constant number of set-based queries (`IN (...)`), never one
query per node: a depth-3 walk over a hub method touches hundreds of nodes. The walk runs on the
integer keys references are stored under (query/keys.py) and names its nodes once at the end.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from roslynmap.query import dispatch, projectrefs, typeargs, unbound, unlinked
from roslynmap.query.keys import ids_of, key_of
from roslynmap.query.projectrefs import Hosts
from roslynmap.query.shared_ids import SharedIds, restriction, shared_ids
from roslynmap.query.sql import CHUNK, chunks, in_chunks, marks

CALL_EDGE = (
    "(r.kind IN ('Call', 'ImplicitCall', 'Instantiate') OR (r.kind IN ('Read', 'Write')"
    " AND r.target_kind IN ('Property', 'Indexer', 'Event')))"
)
# graph_callees by default: invocations and constructions only, no property reads (issue 14: a depth-2 walk
# of one method was 31.6K chars, mostly getters and unbound LINQ calls).
CALLS_ONLY = "r.kind IN ('Call', 'ImplicitCall', 'Instantiate')"  # an implicit call is a call
DISPATCH_KINDS = "('Implementation', 'Override')"


@dataclass
class Graph:
    root: dict[str, Any]
    nodes: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    truncated_levels: dict[int, int] = field(default_factory=dict)
    external_callees: int = 0
    # callers: per level, the unbound calls named like a node of the level before (the root at level 1)
    unbound: dict[int, unbound.Unbound] = field(default_factory=dict)
    # callees with calls_only: unbound calls counted by name, not listed as nodes
    unbound_skipped: dict[str, int] = field(default_factory=dict)


def nodes_info(conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Name, kind and location of each id declared in the solution (first project wins)."""
    rows = in_chunks(conn, "SELECT s.symbol_id, s.name, s.kind, f.path, s.line FROM symbols s LEFT JOIN files f"
                      " ON f.id = s.file_id WHERE s.symbol_id IN ({marks}) ORDER BY s.project_id DESC", set(ids))
    return {r[0]: {"symbol_id": r[0], "name": r[1], "kind": r[2], "file": r[3], "line": r[4]} for r in rows}


def node_info(conn: sqlite3.Connection, symbol_id: str) -> dict[str, Any] | None:
    return nodes_info(conn, [symbol_id]).get(symbol_id)


def dispatch_closure(conn: sqlite3.Connection, start: Iterable[int], upward: bool) -> dict[int, list[int]]:
    """Transitive Implementation/Override closure: for each start key, the members it implements or
    overrides (upward) or the members implementing/overriding it (downward)."""
    src, dst = ("from_key", "target_key") if upward else ("target_key", "from_key")
    result: dict[int, list[int]] = {s: [] for s in start}
    reach: dict[int, set[int]] = {s: {s} for s in result}
    frontier = {s: s for s in result}  # reached key -> the start it belongs to
    # Links the compiler could not make (a signature naming a type that did not bind), matched by name.
    inferred = unlinked.implementations(conn) if upward else unlinked.implemented(conn)
    while frontier:
        next_frontier: dict[int, int] = {}
        for a, b in [*in_chunks(conn, f"SELECT DISTINCT {src}, {dst} FROM refs WHERE {src} IN ({{marks}})"
                                      f" AND kind IN {DISPATCH_KINDS} AND {dst} IS NOT NULL", frontier),
                     *((m, b) for m in frontier for b in inferred.get(m, ()))]:
            origin = frontier[a]
            if b not in reach[origin]:
                reach[origin].add(b)
                result[origin].append(b)
                next_frontier[b] = origin
        frontier = next_frontier
    return result


def _edges_into(
    conn: sqlite3.Connection, targets: Iterable[int], callers: Iterable[int], only: tuple[str, list[Any]] = ("", [])
) -> list[tuple[int, int, str, int, int]]:
    """(target, caller, kind, count, first ref id) for call edges from `callers` into `targets`; `only`: the
    shared-id restriction (query/shared_ids.restriction)."""
    wanted = sorted(set(callers))
    if not wanted:
        return []
    rows: list[tuple[int, int, str, int, int]] = []
    for chunk in chunks(targets):
        rows.extend(conn.execute(
            # Per file too: a member's calls are in its own file, but an id several projects declare (each
            # top-level Program's `<Main>$`) calls from each of theirs.
            f"SELECT r.target_key, r.from_key, r.kind, count(*), min(r.id) FROM refs r WHERE r.target_key IN"
            f" ({marks(chunk)}) AND {CALL_EDGE} AND r.from_key IN ({marks(wanted)}){only[0]}"
            f" GROUP BY r.target_key, r.from_key, r.kind, r.file_id", [*chunk, *wanted, *only[1]]))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    return rows


def _ranked_callers(
    conn: sqlite3.Connection, targets: list[int], visited: set[int], limit: int,
    only: tuple[str, list[Any]] = ("", []),
) -> tuple[list[tuple[int, int]], int]:
    """Up to `limit` new callers of `targets` as (key, calls), most calls first, and how many new
    callers exist in all; `only`: the shared-id restriction (query/shared_ids.restriction).

    Ranking and counting happen in SQLite, from the index: a hub method's thousands of callers never
    become Python rows."""
    if len(targets) <= CHUNK:
        seen = sorted(visited)
        where = (f"r.target_key IN ({marks(targets)}) AND {CALL_EDGE} AND r.from_key IS NOT NULL"
                 f" AND r.from_key NOT IN ({marks(seen)}){only[0]}")
        args = [*targets, *seen, *only[1]]
        top = conn.execute(f"SELECT r.from_key, count(*) c FROM refs r WHERE {where} GROUP BY r.from_key"
                           " ORDER BY c DESC, r.from_key LIMIT ?", [*args, limit]).fetchall()
        available = conn.execute(f"SELECT count(DISTINCT r.from_key) FROM refs r WHERE {where}",
                                 args).fetchone()[0] if len(top) == limit else len(top)
        return [(int(r[0]), int(r[1])) for r in top], int(available)
    counts: dict[int, int] = {}
    for chunk in chunks(targets):
        for caller, count in conn.execute(
                f"SELECT r.from_key, count(*) FROM refs r WHERE r.target_key IN ({marks(chunk)}) AND {CALL_EDGE}"
                f" AND r.from_key IS NOT NULL{only[0]} GROUP BY r.from_key", [*chunk, *only[1]]):
            counts[caller] = counts.get(caller, 0) + count
    ranked = sorted((c for c in counts if c not in visited), key=lambda c: (-counts[c], c))
    return [(c, counts[c]) for c in ranked[:limit]], len(ranked)


def _declaring_projects(conn: sqlite3.Connection, callers: list[int], targets: list[int],
                        only: tuple[str, list[Any]]) -> dict[int, set[int]]:
    """For callers whose id several projects declare: the projects whose declaration makes these calls (a
    reference's project is its member's)."""
    found: dict[int, set[int]] = {}
    if not callers:
        return found
    for chunk in chunks(targets):
        for caller, project in conn.execute(
                f"SELECT DISTINCT r.from_key, r.project_id FROM refs r WHERE r.from_key IN ({marks(callers)})"
                f" AND r.target_key IN ({marks(chunk)}) AND {CALL_EDGE}{only[0]}", [*callers, *chunk, *only[1]]):
            found.setdefault(int(caller), set()).add(int(project))
    return found


def _only_blocked(conn: sqlite3.Connection, targets: dict[int, list[tuple[int, int | None]]],
                  blocked: set[tuple[int, int, int]]) -> set[int]:
    """The callers whose every call edge into `targets` is blocked (dispatch.narrow)."""
    suspects = {caller for caller, _, _ in blocked}
    if not suspects:
        return set()
    open_edge: set[int] = set()
    for caller, target in in_chunks(conn, f"SELECT DISTINCT r.from_key, r.target_key FROM refs r WHERE r.from_key IN"
                                    f" ({{marks}}) AND {CALL_EDGE}", sorted(suspects)):
        if any((caller, target, callee) not in blocked for callee, _ in targets.get(target, [])):
            open_edge.add(caller)
    return suspects - open_edge


def _apart(conn: sqlite3.Connection, processes: projectrefs.Processes,
           targets: dict[int, list[tuple[int, int | None]]], hosts: dict[int, Hosts]) -> set[tuple[int, int, int]]:
    """The call edges (caller, target, callee) into a level that no process runs (query/projectrefs.py Processes): a
    caller whose every call into the target is in a project that no process running the callee loads (CAP's sample
    apps calling ICapPublisher.PublishAsync are no callers of the test project's fake; and walking up from Hangfire's
    test stub of JobStorage through the library's RecurringJobManager.AddOrUpdate, the sample app calling AddOrUpdate
    is none). Found by project first, so a hub's callers in the projects that can run it never leave SQLite."""
    if not processes.active:
        return set()
    narrowed = {callee for pairs in targets.values() for callee, _ in pairs if hosts.get(callee) is not None}
    declared = processes.members(narrowed)
    # A direct call into a member run wherever it is loaded is in a project loading it: only a call through a base
    # member, or into a member the walk runs in fewer processes, can be apart.
    loose = {c for c in narrowed if hosts[c] == processes.member_hosts(c)}
    wanted = sorted(t for t, pairs in targets.items()
                    if any(c in narrowed and (via is not None or c not in loose) for c, via in pairs))
    if not wanted:
        return set()
    cannot: dict[tuple[int, int], set[int]] = {}  # (target, calling project) -> the callees its calls cannot run
    for target, project in in_chunks(conn, f"SELECT DISTINCT r.target_key, r.project_id FROM refs r WHERE r.target_key"
                                     f" IN ({{marks}}) AND {CALL_EDGE} AND r.from_key IS NOT NULL", wanted):
        for callee, via in targets[target]:
            if callee in narrowed and _runs_from(processes, hosts[callee], int(project), via,
                                                 declared[callee]) == frozenset():
                cannot.setdefault((int(target), int(project)), set()).add(callee)
    if not cannot:
        return set()
    bad_targets = sorted({t for t, _ in cannot})
    bad_projects = sorted({p for _, p in cannot})
    suspects: set[int] = set()
    for chunk in chunks(bad_targets):
        suspects.update(int(r[0]) for r in conn.execute(
            f"SELECT DISTINCT r.from_key FROM refs r WHERE r.target_key IN ({marks(chunk)}) AND {CALL_EDGE}"
            f" AND r.project_id IN ({marks(bad_projects)}) AND r.from_key IS NOT NULL", [*chunk, *bad_projects]))
    # A caller some of whose calls come from another project (a file several projects compile) may still run it.
    projects: dict[tuple[int, int], set[int]] = {}
    for caller, target, project in _calling_projects(conn, sorted(suspects), bad_targets):
        projects.setdefault((caller, target), set()).add(project)
    out: set[tuple[int, int, int]] = set()
    for (caller, target), calling in projects.items():
        for callee, _ in targets[target]:
            if all(callee in cannot.get((target, p), ()) for p in calling):
                out.add((caller, target, callee))
    return out


def _runs_from(processes: projectrefs.Processes, hosts: Hosts, project: int, via: int | None,
               callee_projects: frozenset[int]) -> Hosts:
    """The processes a call from `project` into a member run in `hosts` runs it in (empty: none). A direct call the
    references do not explain (a reference the index did not read) runs wherever its caller does."""
    own = processes.hosts_of([project])
    if via is None and not processes.explains([project], callee_projects):
        return own
    return projectrefs.within(hosts, own)


def _caller_hosts(conn: sqlite3.Connection, processes: projectrefs.Processes,
                  targets: dict[int, list[tuple[int, int | None]]], hosts: dict[int, Hosts],
                  blocked: set[tuple[int, int, int]], callers: list[int]) -> dict[int, Hosts]:
    """The processes each new caller runs its callees in (graph_callers carries them up the walk)."""
    found: dict[int, Hosts] = {}
    if not processes.active or not callers:
        return found
    declared = processes.members({c for pairs in targets.values() for c, _ in pairs})
    for caller, target, project in _calling_projects(conn, callers, list(targets)):
        for callee, via in targets[target]:
            if (caller, target, callee) in blocked:
                continue
            reached = _runs_from(processes, hosts.get(callee), project, via, declared[callee])
            if reached != frozenset():
                projectrefs.carry(found, caller, reached)
    return found


def _calling_projects(conn: sqlite3.Connection, callers: list[int],
                      targets: list[int]) -> list[tuple[int, int, int]]:
    """(caller, target, project) for the call edges between them: the project each caller's calls come from."""
    rows: list[tuple[int, int, int]] = []
    for caller_chunk in chunks(callers):
        for target_chunk in chunks(targets):
            rows.extend((int(a), int(b), int(c)) for a, b, c in conn.execute(
                f"SELECT DISTINCT r.from_key, r.target_key, r.project_id FROM refs r WHERE r.from_key IN"
                f" ({marks(caller_chunk)}) AND r.target_key IN ({marks(target_chunk)}) AND {CALL_EDGE}",
                [*caller_chunk, *target_chunk]))
    return rows


def _locate(conn: sqlite3.Connection, edges: list[dict[str, Any]]) -> None:
    """Replaces each edge's `ref` (a refs row id) with the file and line of that first reference."""
    rows = in_chunks(conn, "SELECT r.id, f.path, r.line FROM refs r LEFT JOIN files f ON f.id = r.file_id"
                      " WHERE r.id IN ({marks})", [e["ref"] for e in edges])
    where: dict[int, tuple[str, int]] = {r[0]: (r[1], r[2]) for r in rows}
    for edge in edges:
        edge["file"], edge["line"] = where.get(edge.pop("ref"), (None, None))


def _name_edges(conn: sqlite3.Connection, edges: list[dict[str, Any]]) -> dict[int, str]:
    """Replaces the keys in edges (from, to, via) by symbol ids; returns the key -> id map used."""
    names = ids_of(conn, (e[k] for e in edges for k in ("from", "to", "via") if k in e))
    for edge in edges:
        for end in ("from", "to", "via"):
            if isinstance(edge.get(end), int):
                edge[end] = names[edge[end]]
    return names


def _edges_out_of(
    conn: sqlite3.Connection, callers: Iterable[int], edge: str = CALL_EDGE,
    window: tuple[int, str, int, int] | None = None, only: tuple[str, list[Any]] = ("", []),
) -> list[tuple[int, int | None, str, str, int, int, str, str | None]]:
    """(caller, target or None, target name, kind, count, first line, first file, receiver) for call edges
    out; the receiver text only for unbound calls (it is all an agent has to tell them apart). `window`
    (caller key, file, first line, last line): that caller's edges only from those lines (a route's lambda);
    `only`: the shared-id restriction on callers (query/shared_ids.restriction, column from_key)."""
    receiver = "CASE WHEN r.target_key IS NULL THEN r.receiver END"
    inside, args = _callers_clause(only, window)
    rows: list[tuple[int, int | None, str, str, int, int, str, str | None]] = []
    for chunk in chunks(list(callers)):
        rows.extend(conn.execute(
            f"SELECT r.from_key, r.target_key, r.target_name, r.kind, count(*), min(r.line), min(f.path),"
            f" {receiver} FROM refs r LEFT JOIN files f ON f.id = r.file_id WHERE r.from_key IN ({marks(chunk)})"
            f" AND {edge}{inside} GROUP BY r.from_key, r.target_key, r.target_name, r.kind, {receiver}",
            [*chunk, *args]))
    return rows


def _callers_clause(only: tuple[str, list[Any]], window: tuple[int, str, int, int] | None) -> tuple[str, list[Any]]:
    """SQL (` AND ...`, refs `r` joined to files `f`) and its arguments limiting the calling side: the shared-id
    restriction, and a caller's lambda window (caller key, file, first line, last line)."""
    inside, args = only[0], list(only[1])
    if window is not None:
        inside += " AND (r.from_key != ? OR (f.path = ? AND r.line BETWEEN ? AND ?))"
        args.extend(window)
    return inside, args


class _Runnable:
    """The implementations each call of a level can run: all of its target's, less those its receiver rules
    out (query/dispatch.py CallReach: `base.` runs none, `this` only its own class line's, as narrowed by what the
    caller's object is known to be, a receiver of a known class only that class line's) and those no process running
    the caller loads (`hosts`, query/projectrefs.py Processes: a sample app never runs a test project's fake)."""

    def __init__(self, conn: sqlite3.Connection, lineage: dispatch.Lineage, keys: dict[str, int],
                 implementations: dict[str, list[str]], callers: list[int], targets: Iterable[str],
                 objects: dispatch.Objects, hosts: dict[int, Hosts]) -> None:
        self._keys, self._implementations, self._hosts = keys, implementations, hosts
        self._processes = projectrefs.processes(conn)
        if self._processes.active:  # one query for the level
            self._processes.members([*callers, *(keys[i] for impls in implementations.values() for i in impls)])
        lineage.learn([*callers, *(keys[i] for impls in implementations.values() for i in impls)])
        # Every target: a call on `this` (or a typed receiver) carries its object down even into a member nothing
        # overrides.
        self.reach = dispatch.CallReach(conn, lineage, callers, [keys[t] for t in targets], CALL_EDGE, objects)

    def of(self, caller: str, target: str | None) -> list[str]:
        impls = self._implementations.get(target or "", [])
        if not impls or target is None:
            return impls
        caller_key, target_key = self._keys[caller], self._keys[target]
        kept = self.reach.runnable(caller_key, target_key, [self._keys[i] for i in impls])
        hosts = self._hosts.get(caller_key)
        return [i for i in impls if self._keys[i] in kept
                and self._processes.entered(hosts, self._keys[i]) != frozenset()]

    def carried(self, edges: Iterable[tuple[int | None, int | None, Iterable[int]]]) -> dict[int, Hosts]:
        """The processes each callee of the level runs in: its callers' (a call stays in the caller's process), and
        for an implementation those of them loading it."""
        found: dict[int, Hosts] = {}
        for caller, target, implementations in edges:
            if caller is None:
                continue
            hosts = self._hosts.get(caller)
            if target is not None:
                projectrefs.carry(found, target, hosts)
            for impl in implementations:
                projectrefs.carry(found, impl, self._processes.entered(hosts, impl))
        return found


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


def call_kinds(kind: str | None) -> tuple[str, ...]:
    """The unbound reference kinds that could be a call edge into a member of this kind."""
    if kind in ("Property", "Indexer", "Event"):
        return ("Read", "Write")
    return ("Call", "Instantiate") if kind == "Constructor" else ("Call",)


def _unbound_into(conn: sqlite3.Connection, frontier: list[int], dispatched: dict[int, list[int]],
                  limit: int) -> unbound.Unbound:
    """Unbound calls named like a frontier member or a member it implements or overrides."""
    keys = set(frontier) | {b for bases in dispatched.values() for b in bases}
    info = nodes_info(conn, ids_of(conn, keys).values())
    names = {n["name"]: call_kinds(n["kind"]) for n in info.values() if n["kind"] not in ("Class", "Struct")}
    kinds = sorted({k for ks in names.values() for k in ks})
    return unbound.find(conn, names, kinds=kinds, limit=limit, symbol_ids=set(info))


def _start(conn: sqlite3.Connection, symbol_id: str) -> tuple[Graph, int | None]:
    """The graph rooted at `symbol_id` and the root's key (None: no reference names it, an empty walk)."""
    return Graph(node_info(conn, symbol_id) or {"symbol_id": symbol_id}), key_of(conn, symbol_id)


def callers(conn: sqlite3.Connection, symbol_id: str, depth: int, limit_per_level: int,
            root_projects: Iterable[int] | None = None) -> Graph:
    """`root_projects`: for an id several projects declare, the declarations whose callers are wanted (else all)."""
    graph, root = _start(conn, symbol_id)
    if root is None:
        if graph.root.get("name"):  # declared but never referenced by a bound reference: unbound calls may be
            found = unbound.find(conn, [graph.root["name"]], kinds=call_kinds(graph.root.get("kind")),
                                 limit=limit_per_level, symbol_ids={symbol_id})
            if found.total:
                graph.unbound[1] = found
        return graph
    visited = {root}
    frontier = [root]
    lineage = dispatch.Lineage(conn)
    bounds: dispatch.Bounds = {}  # frontier member -> the classes its object is of (dispatch.narrow)
    type_bounds: typeargs.TypeBounds = {}  # frontier member -> the method type arguments it is called with
    levels: list[list[tuple[int, int]]] = []  # per level: (caller key, calls), ranked
    level_ends: list[int] = []  # where each level's edges end in graph.edges
    shared = shared_ids(conn)
    places: dict[int, set[int]] = {}  # a shared key walked: the projects whose declaration of it was reached
    if root_projects is not None and shared.declared_in([root]):
        places[root] = set(root_projects)
    processes = projectrefs.processes(conn)
    # frontier member -> the processes running it that the walk came through (query/projectrefs.py Processes)
    hosts = {root: processes.hosts_of(root_projects) if root_projects is not None else processes.member_hosts(root)}
    for level in range(1, depth + 1):
        only = restriction({k: shared.seeing(k, places[k]) for k in frontier if k in places})
        dispatched = dispatch_closure(conn, frontier, upward=True)
        found = _unbound_into(conn, frontier, dispatched, limit_per_level)
        if found.total:
            graph.unbound[level] = found
        # target -> (the frontier member it stands for, via)
        targets: dict[int, list[tuple[int, int | None]]] = {}
        for callee in frontier:
            targets.setdefault(callee, []).append((callee, None))
            for base in dispatched[callee]:
                targets.setdefault(base, []).append((callee, base))
        # A caller reaching a frontier member only through calls that cannot run it (`base.`, `this` in another class
        # line, a receiver typed as a class its object cannot be of) is none.
        narrowed = dispatch.narrow(conn, lineage, targets, bounds, CALL_EDGE)
        typed = typeargs.narrow(conn, targets, type_bounds, CALL_EDGE)
        blocked = narrowed.blocked | typed.blocked | _apart(conn, processes, targets, hosts)
        ranked, available = _ranked_callers(conn, list(targets), visited | _only_blocked(conn, targets, blocked),
                                            limit_per_level, only)
        fresh = [key for key, _ in ranked]
        places.update(_declaring_projects(conn, list(shared.declared_in(fresh)), list(targets), only))
        if available > len(fresh):
            graph.truncated_levels[level] = available - len(fresh)
        described = set(fresh) | visited  # edges only between nodes the graph shows
        visited.update(fresh)
        into = _edges_into(conn, targets, described, only)
        bounds = narrowed.bounds(lineage, targets, bounds, ((r[1], r[0]) for r in into), set(fresh))
        type_bounds = {caller: bound for caller, bound in typed.bounds.items() if caller in fresh}
        hosts = _caller_hosts(conn, processes, targets, hosts, blocked, fresh)
        by_name = unlinked.implementations(conn)
        for target, caller, kind, count, first_ref in into:
            for callee, via in targets[target]:
                if (caller, target, callee) in blocked:
                    continue
                edge: dict[str, Any] = {"from": caller, "to": callee, "kind": kind, "count": count, "ref": first_ref}
                if via:
                    edge["via"] = via
                    if via in by_name.get(callee, ()):
                        edge["inferred"] = "unlinked_signature"  # matched by name: lower confidence
                graph.edges.append(edge)
        levels.append(ranked)
        level_ends.append(len(graph.edges))
        frontier = fresh
        if not frontier:
            break
    _locate(conn, graph.edges)
    names = _name_edges(conn, graph.edges)
    names.update(ids_of(conn, (key for ranked in levels for key, _ in ranked if key not in names)))
    start = 0
    for end in level_ends:  # readable order: per level, by callee, then caller
        graph.edges[start:end] = sorted(graph.edges[start:end],
                                        key=lambda e: (e["to"], e["from"], e["kind"], e.get("via", "")))
        start = end
    info = nodes_info(conn, [names[key] for ranked in levels for key, _ in ranked])
    for level, ranked in enumerate(levels, start=1):
        for key, _ in sorted(ranked, key=lambda kc: (-kc[1], names[kc[0]])):
            graph.nodes.append({**info.get(names[key], {"symbol_id": names[key]}), "depth": level})
    return graph



def call_edge(caller: str, target: str | None, name: str, kind: str, count: int, line: int | None, file: str | None,
              receiver: str | None, unresolved: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """(node key, edge) of one callee row; an unbound call is a node by name (`?Name`), noted in `unresolved`.
    Shared by graph_callees and the trace walk (query/trace.py)."""
    key = target or f"?{name}"
    edge: dict[str, Any] = {"from": caller, "to": key, "kind": kind, "count": count, "file": file, "line": line}
    if target is None:
        edge["unbound"] = True
        if receiver:
            edge["receiver"] = receiver
        unresolved.setdefault(key, {"symbol_id": None, "name": name, "unresolved": True})
    return key, edge


def callees(conn: sqlite3.Connection, symbol_id: str, depth: int, limit_per_level: int,
            calls_only: bool = False, root_place: tuple[str, int, int] | None = None) -> Graph:
    """`calls_only`: invocations and constructions, and unbound calls counted by name instead of walked.
    `root_place` (file, first line, last line): the root's calls from there only (an id several projects
    declare, such as every top-level `Program.<Main>$`, shares one key)."""
    graph, root = _start(conn, symbol_id)
    if root is None:
        return graph
    visited = {symbol_id}
    frontier = [root]
    lineage = dispatch.Lineage(conn)
    shared = shared_ids(conn)
    places: dict[int, set[int]] = {}  # a shared key walked: the projects whose declaration of it was reached
    type_bounds: typeargs.TypeBounds = {}  # frontier member -> the method type arguments it was called with
    objects: dispatch.Objects = {}  # frontier member -> what its object is known to be (entered on `this`)
    hosts = {root: projectrefs.processes(conn).member_hosts(root)}  # frontier member -> the processes it runs in
    for level in range(1, depth + 1):
        window = (root, *root_place) if root_place and level == 1 else None
        only = restriction({k: places[k] for k in frontier if k in places}, column="from_key")
        raw = _edges_out_of(conn, frontier, CALLS_ONLY if calls_only else CALL_EDGE, window, only)
        if calls_only:
            for row in raw:
                if row[1] is None:
                    graph.unbound_skipped[row[2]] = graph.unbound_skipped.get(row[2], 0) + row[4]
            raw = [row for row in raw if row[1] is not None]
        names = ids_of(conn, (k for r in raw for k in r[:2]))
        keys = {name: key for key, name in names.items()}
        rows = [(names[r[0]], None if r[1] is None else names[r[1]], *r[2:]) for r in raw]
        # `new T()` is recorded against the type and the constructor: keep the constructor edge.
        rows = [r for r in rows if not (r[3] == "Instantiate" and r[1] and r[1].startswith("T:"))]
        rows.sort(key=lambda r: (r[0], r[5], r[2], r[7] or ""))
        targets = {r[1] for r in rows if r[1]}
        info = nodes_info(conn, targets)
        dispatch_of = dispatch_closure(conn, [keys[t] for t in targets if t in info], upward=False)
        impl_names = ids_of(conn, (i for impls in dispatch_of.values() for i in impls))
        keys.update({name: key for key, name in impl_names.items()})
        implementations = {names[k]: [impl_names[i] for i in impls] for k, impls in dispatch_of.items() if impls}
        runs = _Runnable(conn, lineage, keys, implementations, frontier, [t for t in targets if t in info], objects,
                         hosts)
        generic = [keys[t] for t in targets if typeargs.matters(t, t in implementations)]
        by_types = typeargs.Downward(conn, frontier, generic, type_bounds, CALLS_ONLY if calls_only else CALL_EDGE)
        # Candidates in row order, each target followed by the implementations its calls can run (an
        # interface of the shared kernel can have hundreds), admitted up to the level's limit.
        admitted = _Level(graph, visited, level, limit_per_level)
        unresolved: dict[str, dict[str, Any]] = {}
        candidates: dict[str, None] = {}
        level_edges: list[tuple[dict[str, Any], list[str]]] = []
        for caller, target, name, kind, count, line, file, receiver in rows:
            if target and target not in info:
                graph.external_callees += 1
                continue
            key, edge = call_edge(caller, target, name, kind, count, line, file, receiver, unresolved)
            impls = [i for i in runs.of(caller, target)
                     if target is None or by_types.allows(keys[caller], keys[target], i)]
            level_edges.append((edge, impls))
            candidates.setdefault(key, None)
            candidates.update(dict.fromkeys(i for i in impls if i not in candidates))
        for node_id in candidates:
            admitted.admit(node_id)
        for edge, impls in level_edges:  # edges only into nodes the graph shows
            if edge["to"] in visited:
                graph.edges.append(edge)
            for impl in impls:
                if impl in visited:
                    graph.edges.append({**edge, "to": impl, "kind": "Dispatch", "via": edge["to"]})
        info.update(nodes_info(conn, [n for n in admitted.admitted if n not in info and n not in unresolved]))
        for node_id in admitted.admitted:
            graph.nodes.append({**(info.get(node_id) or unresolved[node_id]), "depth": level})
        next_frontier = [keys[n] for n in admitted.admitted if n in info]
        carried = [(keys.get(e["from"]), keys.get(e["to"]), [keys[i] for i in impls]) for e, impls in level_edges]
        type_bounds = typeargs.carried_bounds(by_types, carried)
        objects = runs.reach.carried(carried)
        hosts = runs.carried(carried)
        shared_next = list(shared.declared_in(next_frontier))
        places.update(declarations_called(conn, shared, frontier, shared_next, only, window,
                                           CALLS_ONLY if calls_only else CALL_EDGE))
        frontier = next_frontier
        if not frontier:
            break
    return graph


def declarations_called(conn: sqlite3.Connection, shared: SharedIds, callers: list[int], targets: list[int],
                         only: tuple[str, list[Any]], window: tuple[int, str, int, int] | None,
                         edge: str) -> dict[int, set[int]]:
    """For callees whose id several projects declare: the declarations `callers` call (a reference names its own
    project's declaration, else one of a project it references). A callee whose declaration cannot be told (its
    caller's project references none by a project reference: a DLL reference) is left out, so unrestricted."""
    found: dict[int, set[int]] = {}
    unknown: set[int] = set()
    if not targets:
        return found
    inside, args = _callers_clause(only, window)
    for chunk in chunks(callers):
        for target, project in conn.execute(
                f"SELECT DISTINCT r.target_key, r.project_id FROM refs r LEFT JOIN files f ON f.id = r.file_id"
                f" WHERE r.from_key IN ({marks(chunk)}) AND r.target_key IN ({marks(targets)}) AND {edge}{inside}",
                [*chunk, *targets, *args]):
            seen = shared.declaration_seen(int(target), int(project))
            if not seen:
                unknown.add(int(target))
            found.setdefault(int(target), set()).update(seen)
    return {k: v for k, v in found.items() if k not in unknown}
