"""Answers for changing and reviewing code: tests reaching a symbol, the impact of changing it,
unused symbols, and the project dependency graph. Pure reads over one baseline (or overlay view).

Tests are `Test` facts (a method with an xUnit/NUnit/MSTest attribute, written by the bridge); a test
reaches a symbol through the reverse call graph (query/graph.py, interface dispatch included) or, as a
functional test, through an `HttpCall` fact whose path matches an endpoint whose handler reaches it.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from roslynmap.model.kinds import TYPE_KINDS
from roslynmap.query import generated, graph, projectrefs, surfaces, trace, unbound
from roslynmap.query.httpcalls import FRAMEWORK_SERVED, call_path
from roslynmap.query.keys import ids_of, key_of, keys_of
from roslynmap.query.queues import queue_senders
from roslynmap.query.senders import mediator_senders
from roslynmap.query.shared_ids import declarations, shared_ids
from roslynmap.query.sql import ONCE_PER_SOURCE, in_chunks
from roslynmap.query.subscriptions import publishers
from roslynmap.query.topics import topic_publishers

MAX_MEMBERS = 30  # a type's tests: the callers of at most this many of its members are walked


@dataclass
class TestHit:
    test: str
    framework: str
    attribute: str | None
    file: str | None
    line: int | None
    depth: int
    path: list[str]
    route: str | None = None
    call: str | None = None  # functional: the HTTP call (`GET /api/orders/5`)

    def item(self) -> dict[str, Any]:
        out: dict[str, Any] = {"test": self.test, "framework": self.framework, "file": self.file, "line": self.line,
                               "depth": self.depth}
        # The members between the test and the symbol (the two ends are the row's test and the asked symbol).
        via = self.path[1:-1]
        if via:
            out["via"] = via
        if self.attribute:
            out["attribute"] = self.attribute
        if self.route:
            out.update(kind="functional", route=self.route, call=self.call)
        return out


@dataclass
class Reach:
    """The reverse call graph of a symbol (or a type's members): who reaches it, and through what."""

    roots: list[str]
    depth: dict[str, int] = field(default_factory=dict)  # reached member -> levels from a root (roots 0)
    next_hop: dict[str, str] = field(default_factory=dict)  # reached member -> the member it calls on the way
    hops: dict[str, set[str]] = field(default_factory=dict)  # reached member -> every member it calls on the way
    truncated: int = 0
    # Calls the compiler could not bind named like a member of the walk (graph.Graph.unbound): not walked, so
    # what they reach is missing from the answer; said in it.
    unbound: int = 0
    unbound_candidates: int = 0  # of them, those whose compiler candidates include the member
    unbound_names: set[str] = field(default_factory=set)
    # Callers reached through an unbound call whose only compiler candidate was the member they call: walked
    # like bound calls (unbound.sole_candidate_callers), and no longer counted in `unbound`.
    through_unbound: set[str] = field(default_factory=set)
    # Members reached because they send a reached handler's request through a mediator (senders.mediator_senders).
    through_mediator: set[str] = field(default_factory=set)
    # Members reached because they push a reached handler's command on a queue (queues.queue_senders).
    through_queue: set[str] = field(default_factory=set)
    # Members reached because they publish an event a reached handler is subscribed to (subscriptions.publishers).
    through_subscription: set[str] = field(default_factory=set)
    # Members reached because they publish to a topic a reached method is subscribed to (topics.topic_publishers).
    through_topic: set[str] = field(default_factory=set)
    sent_to: set[str] = field(default_factory=set)  # the handlers a sender reaches through the mediator
    # Members of source generators' output reached (GeneratedUse facts: the command a `[RelayCommand]` method backs,
    # a Razor view's render method) -> the use that reached them; and the markup files whose generated code uses a
    # member of the walk (a Razor page or component renders it: its routes reach the symbol).
    generated_by: dict[str, generated.GeneratedUse] = field(default_factory=dict)
    markup: set[str] = field(default_factory=set)
    # Reached member -> the files its calls into the walk are in: for an id several projects declare (every
    # top-level `<Main>$`), which of its declarations were reached.
    sites: dict[str, set[str]] = field(default_factory=dict)
    # The declarations asked about (project ids), when a `project` picked one of a root several projects declare.
    root_projects: list[int] | None = None

    def unbound_note(self) -> str:
        """`, + 2 unbound calls named AddItem could reach it too (1 with it among the compiler's candidates)`;
        `, walking 1 unbound call whose only compiler candidate is the member it calls`."""
        walked = len(self.through_unbound)
        through = (f", walking {walked} unbound call{'s' if walked != 1 else ''} whose only compiler candidate is "
                   "the member it calls") if walked else ""
        if not self.unbound:
            return through
        named = f" ({self.unbound_candidates} with it among the compiler's candidates)" \
            if self.unbound_candidates else ""
        return (f"{through}, + {self.unbound} unbound call{'s' if self.unbound != 1 else ''} named "
                f"{', '.join(sorted(self.unbound_names)[:5])} could reach it too{named}")

    def reach_from(self, caller: str, callee: str) -> int | None:
        """`caller` calls (or sends to) `callee`, a member of the walk: the way on is kept; the caller's level when
        it is new (one past the callee's), else None."""
        self.hops.setdefault(caller, set()).add(callee)
        if caller in self.depth:
            return None
        self.depth[caller] = self.depth[callee] + 1
        self.next_hop[caller] = callee
        return self.depth[caller]

    def path(self, member: str) -> list[str]:
        out = [member]
        while out[-1] in self.next_hop and len(out) < 20:
            out.append(self.next_hop[out[-1]])
        return out


def members_of(conn: sqlite3.Connection, symbol_id: str) -> list[str]:
    rows = conn.execute("SELECT DISTINCT symbol_id FROM symbols WHERE container_id = ? ORDER BY line",
                        (symbol_id,)).fetchall()
    return [r[0] for r in rows][:MAX_MEMBERS]


def reach(conn: sqlite3.Connection, symbol_id: str, kind: str, depth: int, per_level: int,
          root_projects: list[int] | None = None) -> Reach:
    """Callers of `symbol_id` up to `depth` levels; for a type, callers of its members (and of the type).
    `root_projects`: for an id several projects declare, the declarations asked about (graph.callers)."""
    roots = [symbol_id] + (members_of(conn, symbol_id) if kind in TYPE_KINDS else [])
    found = Reach(roots, {r: 0 for r in roots}, root_projects=root_projects)
    for root in roots:
        _add_callers(found, graph.callers(conn, root, depth, per_level, root_projects=root_projects), 0)
    # Then through unbound calls whose only candidate is a reached member (or a member it implements), and on
    # from their callers, until nothing new is reached within the depth.
    walked: set[str] = set()
    while True:
        near = {m: d for m, d in found.depth.items() if d < depth and m not in walked}
        if not near:
            break
        walked.update(near)
        keys = {k: m for m, k in keys_of(conn, near).items()}
        bases = graph.dispatch_closure(conn, keys, upward=True)
        names = ids_of(conn, {b for found_bases in bases.values() for b in found_bases})
        wanted = {m: m for m in near} | {names[b]: keys[k] for k, found_bases in bases.items()
                                          for b in found_bases if b in names}
        kinds = {m: graph.call_kinds(n["kind"]) for m, n in graph.nodes_info(conn, wanted).items()}
        # A handler is reached from the members that send its request through a mediator (MediatR's Send).
        # A command's handler, from the members that push the command on a queue (Radarr's IExecute<TCommand>).
        # A handler subscribed to a bus as a delegate, from the members publishing its event (BTCPay's Subscribe<T>).
        for through, sent in ((found.through_mediator, mediator_senders(conn, near)),
                              (found.through_queue, queue_senders(conn, near)),
                              (found.through_subscription, publishers(conn, near)),
                              (found.through_topic, topic_publishers(conn, near))):
            for handle, senders in sent.items():
                for sender in senders:
                    found.sent_to.add(handle)
                    if (level := found.reach_from(sender, handle)) is None:
                        continue
                    through.add(sender)
                    if level < depth:
                        _add_callers(found, graph.callers(conn, sender, depth - level, per_level), level)
        _through_generated(conn, found, near, depth, per_level)
        fresh = unbound.sole_candidate_callers(conn, wanted, kinds)
        callers = ids_of(conn, (c for c, _, _ in fresh))
        for key, callee, calls in fresh:
            caller = callers.get(key)
            if caller is None or (level := found.reach_from(caller, callee)) is None:
                continue
            found.through_unbound.add(caller)
            # Counted among the unbound calls of the walk before: now a caller.
            found.unbound = max(0, found.unbound - calls)
            found.unbound_candidates = max(0, found.unbound_candidates - calls)
            if level < depth:
                _add_callers(found, graph.callers(conn, caller, depth - level, per_level), level)
    return found


RAZOR_GENERATOR = "RazorSourceGenerator"


def _through_generated(conn: sqlite3.Connection, found: Reach, near: dict[str, int], depth: int,
                       per_level: int) -> None:
    """Generated code is not indexed, so its calls are no references: the members of the walk it uses (GeneratedUse
    facts) are reached from the generated member using them, and on from that member's own callers (the code
    calling a generated `SaveCommand` runs the `[RelayCommand]` method). A Razor component rendered in another's
    markup (`<Prices />`) renders its members too: a component's generated member reached goes on to the markup
    using the component."""
    components: dict[str, str] = {}  # a component type -> its generated member reached
    for member in near:
        use = found.generated_by.get(member)
        owner = member if member.startswith("T:") else generated.container_type(member)
        if use and use.generator.endswith(RAZOR_GENERATOR) and owner and owner not in found.depth:
            components.setdefault(owner, member)
    for symbol, uses in generated.uses_of(conn, [*near, *components]).items():
        callee = symbol if symbol in found.depth else components[symbol]
        for use in uses:
            if use.mapped and found.depth[callee] < depth:
                found.markup.add(generated.place(use.mapped)[0])
            if (level := found.reach_from(use.from_member, callee)) is None:
                continue
            found.generated_by[use.from_member] = use
            if level < depth:
                _add_callers(found, graph.callers(conn, use.from_member, depth - level, per_level), level)


TABLE_CALLER_DEPTH = 6


class EndpointsReaching:
    """The endpoints whose handler reaches one of a table's symbols (the first 20): impact_analyze's walk (interface
    calls, mediator sends into a handler, unbound calls whose only candidate is in the walk) and its rule for
    routes (Contoso's pages send each query to a handler reading the table: every table listed no endpoint).
    Then those reaching a member that calls a generic type's member with one of the table's entities as a type
    argument (`inferred: type_argument`, as graph_trace_feature's tables): SimplCommerce registers its entities by
    reflection and reads them through `IRepository<Review>.Query()`, so 80 of its 85 tables had no symbol to walk
    from. One per answer about many tables: each walk, the endpoint list and the GenericCall facts once (a
    repository's callers are shared by every table it serves).
    """

    def __init__(self, conn: sqlite3.Connection, depth: int = TABLE_CALLER_DEPTH) -> None:
        self._conn = conn
        self._depth = depth
        self._walks: dict[str, Reach] = {}
        self._routes: list[dict[str, Any]] | None = None
        self._generic: dict[str, set[str]] | None = None

    def of(self, symbol_ids: list[str], entities: Iterable[str] = ()) -> list[dict[str, Any]]:
        walks = [self._walk(symbol_id) for symbol_id in symbol_ids[:20]]
        generic = [self._walk(caller) for caller in self.generic_callers(entities)]
        out = []
        for route in self._endpoints():
            if any(route_reaches(self._conn, route, found) for found in walks):
                out.append({"endpoint": f"{route['method']} {route['route']}", "handler": route.get("handler")})
            elif any(route_reaches(self._conn, route, found) for found in generic):
                out.append({"endpoint": f"{route['method']} {route['route']}", "handler": route.get("handler"),
                            "inferred": "type_argument"})
        return out

    def generic_callers(self, entities: Iterable[str]) -> list[str]:
        """The members calling a member of a generic type (a repository, `IRepository<T>.Query`) with one of these
        entities as a type argument: GenericCall facts. A generic method's type argument (`ToSmartTableResult<Review>`,
        a paging helper) is no repository's."""
        if self._generic is None:
            self._generic = {}
            for f in surfaces.facts_of_kind(self._conn, "GenericCall"):
                if f.get("symbol_id") and _GENERIC_TYPE_MEMBER.search(str(f["key"])):
                    for entity in f.get("type_arguments") or ():
                        self._generic.setdefault(str(entity), set()).add(str(f["symbol_id"]))
        return sorted({caller for entity in entities for caller in self._generic.get(entity, ())})

    def _walk(self, symbol_id: str) -> Reach:
        if symbol_id not in self._walks:
            self._walks[symbol_id] = reach(self._conn, symbol_id, "", self._depth, 100)
        return self._walks[symbol_id]

    def _endpoints(self) -> list[dict[str, Any]]:
        if self._routes is None:
            self._routes = list(surfaces.endpoints(self._conn, None, None).items)
        return self._routes


_GENERIC_TYPE_MEMBER = re.compile(r"`\d+\.[^.(]+(\(|$)")


def _add_callers(found: Reach, tree: graph.Graph, offset: int) -> None:
    """Merges a caller tree rooted at a member of depth `offset` into `found` (what is reached already keeps
    its depth)."""
    found.truncated += sum(tree.truncated_levels.values())
    for calls in tree.unbound.values():
        found.unbound += calls.total
        found.unbound_candidates += calls.candidate_of
        found.unbound_names.update(calls.by_name)
    level = {n["symbol_id"]: n["depth"] for n in tree.nodes if n.get("symbol_id")}
    for edge in tree.edges:
        caller, callee = edge["from"], edge["to"]
        if caller not in level:
            continue
        # Every edge of a callers tree leads to the root: each is a way on (a route's lambda may take any of them).
        found.hops.setdefault(caller, set()).add(callee)
        if edge.get("file"):
            found.sites.setdefault(caller, set()).add(str(edge["file"]))
        if caller not in found.depth and level.get(callee, 0) == level[caller] - 1:
            found.depth[caller] = level[caller] + offset
            found.next_hop[caller] = callee


def test_facts(conn: sqlite3.Connection) -> dict[str, dict[str, Any]]:
    """Test methods: symbol id -> {framework, attribute, file, line}."""
    out: dict[str, dict[str, Any]] = {}
    for fact in surfaces.facts_of_kind(conn, "Test"):
        if fact["symbol_id"] and fact["symbol_id"] not in out:
            out[fact["symbol_id"]] = {"framework": fact["key"], "attribute": fact.get("attribute"),
                                      "file": fact["file"], "line": fact["line"]}
    return out


MARKUP_ROUTES = frozenset({"razor_page", "blazor"})  # routes of a .cshtml or .razor file (surfaces._razor_routes)


def route_reaches(conn: sqlite3.Connection, route: dict[str, Any], found: Reach) -> bool:
    """The route's handler reaches the symbol; a lambda handler in a member mapping several routes (TodoApi's
    MapTodos) only when a call inside the lambda's lines leads there; a route the framework serves, never."""
    handler = route.get("handler")
    # A page or component whose markup uses a member of the walk renders it on GET (GeneratedUse facts mapped to
    # the markup's lines).
    if route.get("source") in MARKUP_ROUTES and route.get("method") == "GET" and route.get("file") in found.markup:
        return True
    # A fallback to a controller runs its action (Kavita's SPA fallback, FallbackController.Index).
    if route.get("fallback_action") and any(a in found.depth for a in surfaces.fallback_actions(conn, route)):
        return True
    if not handler or handler not in found.depth or not _mapped_declaration_reached(conn, handler, route, found):
        return False
    if route.get("source") in FRAMEWORK_SERVED or route.get("fallback_file") or route.get("fallback_page") \
            or route.get("fallback_action"):
        return found.depth[handler] == 0  # the member mapping it is the one asked about
    window = surfaces.lambda_window(route)
    hops = found.hops.get(handler)
    if window is None or not hops:
        return True
    if (sent := hops & found.sent_to) and _sends_within(conn, window, sent):  # a handler it sends a request to
        return True
    hop_keys = {k: h for h, k in keys_of(conn, hops).items()}
    implemented = graph.dispatch_closure(conn, hop_keys, upward=True)
    wanted = set(hop_keys) | {b for bases in implemented.values() for b in bases}
    names = {h.split("(", 1)[0].rsplit(".", 1)[-1] for h in hops}
    handler_key = key_of(conn, handler)
    for target, name in conn.execute(
            "SELECT r.target_key, r.target_name FROM refs r JOIN files f ON f.id = r.file_id WHERE r.from_key = ?"
            " AND f.path = ? AND r.line BETWEEN ? AND ?", (handler_key, window.file, window.start, window.end)):
        if target in wanted or (target is None and name in names):
            return True
    return False


def _mapped_declaration_reached(conn: sqlite3.Connection, handler: str, route: dict[str, Any], found: Reach) -> bool:
    """A handler several projects declare (a global-namespace `Extensions.X` a route's lambda forwards to) is the
    declaration the mapping project sees: the route reaches the walk only when the walk reached that one (impact of
    what Todo.Web's `AddApplicationServices` calls listed Todo.Api's route to its own `AddApplicationServices`)."""
    root = found.depth.get(handler) == 0
    sites = found.sites.get(handler) or set()
    if not route.get("file") or (not sites if not root else not found.root_projects):
        return True
    shared = shared_ids(conn)
    key = key_of(conn, handler)
    if key is None or not shared.declared_in([key]):
        return True
    projects = projectrefs.file_projects(conn, [route["file"], *sites])
    if route["file"] not in projects:
        return True
    seen = shared.declaration_seen(key, projects[route["file"]])
    # The root itself: the declaration asked for (`project`); a caller: the declarations the walk reached.
    reached = set(found.root_projects or ()) if root else {projects.get(f) for f in sites}
    return not seen or bool(seen & reached)


def _sends_within(conn: sqlite3.Connection, window: surfaces.LambdaWindow, hops: set[str]) -> bool:
    """The lambda's lines send the request of a handler among `hops`: through a mediator (the request itself, or
    wrapped as a type argument), or by making it for a forwarder (`executor.Execute(new CreateX())`)."""
    requests = {"T:" + trace.handled_message(h) for h in hops}
    for key, detail in conn.execute(
            "SELECT fa.key, fa.detail FROM facts fa JOIN files f ON f.id = fa.file_id WHERE fa.kind = 'MediatorRequest'"
            " AND fa.symbol_id = ? AND f.path = ? AND fa.line BETWEEN ? AND ?",
            (window.handler, window.file, window.start, window.end)):
        wrapped = orjson.loads(detail).get("type_args", []) if detail else []
        if key in requests or requests & set(wrapped):
            return True
    made = {r for r in requests} | {f"M:{r[2:]}.#ctor" for r in requests}
    return any(str(target).split("(", 1)[0] in made for (target,) in conn.execute(
        "SELECT i.symbol_id FROM refs r JOIN ids i ON i.key = r.target_key JOIN files f ON f.id = r.file_id"
        " WHERE r.kind = 'Instantiate' AND r.from_key = ? AND f.path = ? AND r.line BETWEEN ? AND ?",
        (key_of(conn, window.handler), window.file, window.start, window.end)))


def tests_reaching(conn: sqlite3.Connection, symbol_id: str, kind: str, depth: int,
                   per_level: int, root_projects: list[int] | None = None) -> tuple[list[TestHit], Reach]:
    """Test methods reaching the symbol through calls, then functional tests reaching it through a route."""
    tests = test_facts(conn)
    found = reach(conn, symbol_id, kind, depth, per_level, root_projects)
    hits: dict[str, TestHit] = {}
    for member, level in sorted(found.depth.items(), key=lambda kv: (kv[1], kv[0])):
        info = tests.get(member)
        if info and member not in hits:
            hits[member] = TestHit(member, info["framework"], info["attribute"], info["file"], info["line"], level,
                                   found.path(member))
    functional: list[TestHit] = []
    handlers = {m for m in found.depth}
    calls = surfaces.facts_of_kind(conn, "HttpCall") if handlers else []
    for call in calls:
        routes = surfaces.route_handlers(conn, f"{call.get('method', 'GET')} {call_path(call['key'])}") or []
        route = next((r for r in routes if r.get("handler") in handlers and route_reaches(conn, r, found)), None)
        if route is None or not call["symbol_id"]:
            continue
        callers = _tests_calling(conn, call["symbol_id"], tests, per_level)
        for test, via in callers:
            info = tests[test]
            functional.append(TestHit(test, info["framework"], info["attribute"], info["file"], info["line"],
                                      found.depth[route["handler"]] + 1, via + found.path(route["handler"]),
                                      f"{route['method']} {route['route']}",
                                      f"{call.get('method', 'GET')} {call['key']}"))
    seen = set(hits)
    for hit in functional:
        if hit.test not in seen:
            seen.add(hit.test)
            hits[hit.test] = hit
    return sorted(hits.values(), key=lambda h: (h.depth, h.route is not None, h.test)), found


def _tests_calling(conn: sqlite3.Connection, member: str, tests: dict[str, dict[str, Any]],
                   per_level: int) -> list[tuple[str, list[str]]]:
    """The tests that are `member` or call it within two levels (a helper sending the request), with the path."""
    if member in tests:
        return [(member, [member])]
    tree = graph.callers(conn, member, 2, per_level)
    hop = {e["from"]: e["to"] for e in tree.edges}
    out = []
    for node in tree.nodes:
        sid = node.get("symbol_id")
        if sid in tests:
            path = [sid]
            while path[-1] != member and path[-1] in hop and len(path) < 4:
                path.append(hop[path[-1]])
            out.append((sid, path))
    return out


# ----------------------------------------------------------------------------------------------- impact

def implementations(conn: sqlite3.Connection, symbol_id: str) -> tuple[list[str], list[str]]:
    """(members implementing or overriding it, transitively; members it implements or overrides)."""
    key = key_of(conn, symbol_id)
    if key is None:
        return [], []
    down = graph.dispatch_closure(conn, [key], upward=False)[key]
    up = graph.dispatch_closure(conn, [key], upward=True)[key]
    names = ids_of(conn, [*down, *up])
    return [names[k] for k in down if k in names], [names[k] for k in up if k in names]


def refs_by_kind(conn: sqlite3.Connection, symbol_ids: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """({kind: count}, {file: count}) of the references to these symbols."""
    keys = sorted(keys_of(conn, symbol_ids).values())
    by_kind: dict[str, int] = {}
    by_file: dict[str, int] = {}
    rows = in_chunks(conn, "SELECT r.kind, f.path, count(*) FROM refs r LEFT JOIN files f ON f.id = r.file_id"
                     f" WHERE r.target_key IN ({{marks}}) AND {ONCE_PER_SOURCE} GROUP BY r.kind, f.path", keys)
    for kind, path, count in rows:
        by_kind[kind] = by_kind.get(kind, 0) + count
        if path:
            by_file[path] = by_file.get(path, 0) + count
    return by_kind, by_file


def locate(conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """symbol id -> {file, line, project, kind, name} (first row of each id)."""
    rows = in_chunks(conn, "SELECT s.symbol_id, f.path, s.line, p.name, s.kind, s.name FROM symbols s"
                     " LEFT JOIN files f ON f.id = s.file_id JOIN projects p ON p.id = s.project_id"
                     " WHERE s.symbol_id IN ({marks}) ORDER BY s.project_id", sorted(set(ids)))
    out: dict[str, dict[str, Any]] = {}
    for sid, path, line, project, kind, name in rows:
        out.setdefault(sid, {"file": path, "line": line, "project": project, "kind": kind, "name": name})
    return out


def places(conn: sqlite3.Connection, found: Reach, where: dict[str, dict[str, Any]],
           members: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """member -> where it is declared ({file, line}): `where` (locate's first declaration) for most, and for an id
    several projects declare (each top-level `<Main>$`) each declaration whose calls the walk reached."""
    wanted = list(members)
    out = {m: [{k: where.get(m, {}).get(k) for k in ("file", "line")}] for m in wanted}
    for member in shared_ids(conn).shared(wanted):
        declared = declarations(conn, member)
        sites = sorted(f for f in found.sites.get(member, ()) if f in declared)
        if sites:
            out[member] = [{"file": f, "line": declared[f][1]} for f in sites]
    return out


def project_of_files(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, str]:
    """Path -> the name of the project compiling it; a file no project compiles (Razor or XAML markup), the project
    whose folder holds it."""
    wanted = sorted(set(paths))
    rows = in_chunks(conn, "SELECT f.path, p.name FROM files f JOIN projects p ON p.id = f.project_id"
                     " WHERE f.path IN ({marks})", wanted)
    out = {r[0]: r[1] for r in rows}
    if missing := [p for p in wanted if p not in out]:
        folders = projectrefs.project_folders(conn)
        out |= {p: name for p in missing if (name := projectrefs.project_of_path(folders, p))}
    return out


def count_by(items: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """[{key: value, count}] most first (top 15), for a ranked list's by_file."""
    counts: dict[str, int] = {}
    for item in items:
        if item.get(key):
            counts[item[key]] = counts.get(item[key], 0) + 1
    return [{key: v, "count": c} for v, c in sorted(counts.items(), key=lambda vc: (-vc[1], vc[0]))][:15]


# ------------------------------------------------------------------------------------------- dependencies

def dependency_graph(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Per project: output kind, framework, referenced projects, referencing projects, direct packages."""
    projects = conn.execute("SELECT id, name, path, output_kind, target_framework, semantic_level FROM projects"
                            " ORDER BY name").fetchall()
    deps = conn.execute("SELECT project_id, kind, name, version, requested, target_project_id, path, implicit"
                        " FROM project_deps ORDER BY project_id, kind, name").fetchall()
    names = {p[0]: p[1] for p in projects}
    # The loaded solution lists every project a project reaches (MSBuild passes transitive references on: Ombi's
    # 162 edges for 64 written); the project files say which ones are written (ProjectReference facts).
    declared: dict[int, set[str]] = {}
    for pid, key in conn.execute("SELECT project_id, key FROM facts WHERE kind = 'ProjectReference'"):
        declared.setdefault(int(pid), set()).add(str(key))

    reached_by: dict[int, set[str]] = {}
    for d in deps:
        if d[1] == "project":
            reached_by.setdefault(int(d[0]), set()).add(names.get(d[5], d[2]))
    ids = {name: pid for pid, name in names.items()}

    def direct(pid: int, target: str) -> bool:
        """Written in the project file, or not reached through one that is (a reference a Directory.Build.props or an
        import adds is direct too)."""
        if pid not in declared or target in declared[pid]:
            return True
        return not any(target in reached_by.get(ids.get(written, -1), set()) for written in declared[pid])

    out = []
    for pid, name, path, output_kind, framework, level in projects:
        mine = [d for d in deps if d[0] == pid]
        reached = [names.get(d[5], d[2]) for d in mine if d[1] == "project"]
        item: dict[str, Any] = {
            "project": name, "path": path, "output_kind": output_kind, "target_framework": framework,
            "semantic_level": level,
            "references": [r for r in reached if direct(pid, r)],
            "referenced_by": sorted(names[d[0]] for d in deps if d[1] == "project" and d[5] == pid
                                    and direct(d[0], name)),
            "packages": [{k: v for k, v in {"name": d[2], "version": d[3], "requested": d[4],
                                            "implicit": True if d[7] else None}.items() if v is not None}
                         for d in mine if d[1] == "package"],
        }
        if transitive := [r for r in reached if not direct(pid, r)]:
            item["transitive"] = transitive  # reached through the written ones
        out.append(item)
    return out


def package_versions(graph_items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each package with the projects using it and its versions; `conflict` when they differ."""
    by_name: dict[str, dict[str, Any]] = {}
    for item in graph_items:
        for pkg in item["packages"]:
            entry = by_name.setdefault(pkg["name"].lower(), {"name": pkg["name"], "projects": [], "versions": []})
            entry["projects"].append(item["project"])
            version = pkg.get("version") or pkg.get("requested")
            if version and version not in entry["versions"]:
                entry["versions"].append(version)
    out = sorted(by_name.values(), key=lambda e: e["name"].lower())
    for entry in out:
        if len(entry["versions"]) > 1:
            entry["conflict"] = True
    return out
