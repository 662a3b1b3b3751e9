"""Handlers subscribed to an event bus of the solution as delegates (BTCPay Server's
`_eventAggregator.Subscribe<InvoiceEvent>(TopUpInvoiceCore)`; `Publish<T>(T evt)` later invokes the stored delegates):
no bound call joins a publish to the handler, so the link is read from the type arguments (graph_trace_feature's
`Subscription` edge, and the publishers impact_analyze, tests_find and graph_callers' warning walk back).

- A subscribe method: a generic method of the solution with one type parameter T and a parameter whose type is a
  handler delegate built on T: `Action<..., T, ...>`, `Func<..., T, ..., Task>` (or ValueTask), or a delegate type of
  the solution taking T. A `Func<T, bool>` is a predicate (`WaitNext<T>(Func<T, bool>)`), not a handler.
- A publish method: an instance generic method with one type parameter taking it as its only parameter (a cancellation
  token aside: `Publish<T>(T evt)`, not `Matches<T>(Func<T, bool>, T)`), of the
  subscribe method's class or a type of its line (an interface of it, a class implementing it), not a subscribe
  method itself.
- A subscription: a call of a subscribe method whose inferred type argument is a type X (a `GenericCall` fact). Its
  handler is the method group handed to it (a Read of a method of the solution after the call on its line), else the
  methods of the solution a one-line lambda calls (`Subscribe<X>(e => DoX(e))`: the calls after it on its line). A
  lambda over several lines has no handler the facts can tell: the trace names the subscriber in a stop.
- A publish of X (its inferred type argument, exactly: the aggregators seen key their delegates by `typeof(T)`, so a
  subscriber of a base type is not run for a derived event) runs the handlers of the subscriptions of X on the same
  bus line. A subscription typed as a type parameter of its caller (a generic `Subscribe<T>()` helper of a base
  hosted service) is left out: its event is not known here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from roslynmap.query.keys import ids_of, keys_of
from roslynmap.query.sql import in_chunks, memo
from roslynmap.query.typeargs import Bound, first_method_type_argument, generic_calls, parameters, typed_calls_of

_TASKS = frozenset({"System.Threading.Tasks.Task", "System.Threading.Tasks.ValueTask"})
_TOKEN = "System.Threading.CancellationToken"


def _arguments(parameter: str) -> tuple[str, list[str]]:
    """`System.Func{``0,System.Threading.Tasks.Task}` -> ('System.Func', ['``0', 'System.Threading.Tasks.Task'])."""
    name, _, inside = parameter.partition("{")
    return name, parameters(f"M:x({inside[:-1]})") if inside else []


def _is_handler_delegate(parameter: str, delegates: set[str]) -> bool:
    name, args = _arguments(parameter)
    if name == "System.Action":
        return "``0" in args
    if name == "System.Func":
        return "``0" in args[:-1] and args[-1] in _TASKS
    arity = f"`{len(args)}" if args else ""
    return f"T:{name}{arity}" in delegates and "``0" in args


@dataclass(frozen=True)
class Subscription:
    """One call of a subscribe method: the member making it, the event type, where, and the handlers it hands."""

    subscriber: str
    method: str
    event: str
    file: str | None
    line: int
    handlers: tuple[str, ...]


@dataclass(frozen=True)
class Buses:
    """The solution's subscribe and publish methods (once per connection)."""

    publish_buses: dict[str, frozenset[str]]  # publish method id -> the classes of the subscribe methods it pairs with
    subscribe_bus: dict[str, str]  # subscribe method id -> its class
    subscriptions: tuple[Subscription, ...]


def buses(conn: sqlite3.Connection) -> Buses:
    return memo(conn, "event_buses", lambda: _find(conn))


def _line(conn: sqlite3.Connection, type_id: str) -> frozenset[str]:
    """The type, its bases and interfaces, and the types deriving from or implementing it (a bus called through
    its interface is the class's bus too)."""
    seen = {type_id}
    for column, other in (("type_id", "related_id"), ("related_id", "type_id")):
        frontier = [type_id]
        for _ in range(8):
            rows = in_chunks(conn, f"SELECT {other} FROM relations WHERE kind IN ('base', 'interface') AND {other}"
                                   f" IS NOT NULL AND {column} IN ({{marks}})", frontier)
            frontier = [str(r[0]) for r in rows if str(r[0]) not in seen]
            if not frontier:
                break
            seen.update(frontier)
    return frozenset(seen)


def _find(conn: sqlite3.Connection) -> Buses:
    delegates = {str(r[0]) for r in conn.execute("SELECT symbol_id FROM symbols WHERE kind = 'Delegate'")}
    # Instance methods only: a static class's generic helpers (`ForEach<T>(this IEnumerable<T>, Action<T>)`) are no bus.
    generic = {str(m): str(c) for m, c in conn.execute(
        "SELECT symbol_id, container_id FROM symbols WHERE kind = 'Method' AND symbol_id LIKE '%``1(%'"
        " AND container_id IS NOT NULL AND NOT is_static")}
    subscribe = {m: c for m, c in generic.items() if any(_is_handler_delegate(p, delegates) for p in parameters(m))}
    if not subscribe:
        return Buses({}, {}, ())
    lines = {c: _line(conn, c) for c in set(subscribe.values())}
    publish: dict[str, frozenset[str]] = {}
    for method, container in generic.items():
        # A publish takes the event and nothing else (a cancellation token aside): `Matches<T>(Func<T, bool>, T)` is
        # no publish.
        if method not in subscribe and parameters(method) in (["``0"], ["``0", _TOKEN]):
            paired = frozenset(c for c, line in lines.items() if container in line)
            if paired:
                publish[method] = paired
    paired_with = {c for cs in publish.values() for c in cs}
    subscribe = {m: c for m, c in subscribe.items() if c in paired_with}
    if not subscribe:
        return Buses({}, {}, ())
    return Buses(publish, subscribe, tuple(_subscriptions(conn, subscribe)))


def _subscriptions(conn: sqlite3.Connection, methods: dict[str, str]) -> list[Subscription]:
    sites = in_chunks(conn, "SELECT fa.symbol_id, fa.key, fa.detail, fa.file_id, f.path, fa.line, fa.col FROM facts fa"
                            " LEFT JOIN files f ON f.id = fa.file_id WHERE fa.kind = 'GenericCall' AND fa.symbol_id IS"
                            " NOT NULL AND fa.key IN ({marks})", sorted(methods))
    keys = keys_of(conn, {str(s[0]) for s in sites})
    # The next subscribe call on the same line ends a site's argument (two subscriptions on one line).
    starts: dict[tuple[int, int], list[int]] = {}
    for site in sites:
        starts.setdefault((int(site[3] or 0), int(site[5])), []).append(int(site[6] or 0))
    out: list[Subscription] = []
    for caller, method, detail, file_id, path, line, col in sites:
        event = first_method_type_argument(detail)
        if event is None or not event.startswith("T:") or str(caller) not in keys:
            continue
        end = min((c for c in starts[(int(file_id or 0), int(line))] if c > int(col or 0)), default=1 << 30)
        rows = conn.execute("SELECT target_key, kind FROM refs WHERE from_key = ? AND file_id = ? AND line = ? AND"
                            " col > ? AND col < ? AND kind IN ('Read', 'Call') AND target_key IS NOT NULL ORDER BY"
                            " col", (keys[str(caller)], file_id, line, col or 0, end)).fetchall()
        names = ids_of(conn, (int(r[0]) for r in rows))
        solution = _methods(conn, set(names.values()))
        targets = [(names.get(int(r[0]), ""), str(r[1])) for r in rows]
        # A method group is the handler itself; else the methods a one-line lambda calls.
        groups = [t for t, kind in targets if kind == "Read" and t in solution]
        chosen = groups or [t for t, kind in targets if kind == "Call" and t in solution and t not in methods]
        handlers = tuple(dict.fromkeys(chosen))
        out.append(Subscription(str(caller), str(method), event, path, int(line), handlers))
    return sorted(out, key=lambda s: (s.event, s.subscriber, s.line))


def _methods(conn: sqlite3.Connection, ids: set[str]) -> set[str]:
    """The ids among these that are methods of the solution."""
    return {str(r[0]) for r in in_chunks(conn, "SELECT symbol_id FROM symbols WHERE kind = 'Method' AND symbol_id IN"
                                               " ({marks})", sorted(ids))}


def _subscribed(found: Buses, publish: str, event: str) -> list[Subscription]:
    paired = found.publish_buses[publish]
    return [s for s in found.subscriptions if s.event == event and found.subscribe_bus[s.method] in paired]


def subscription_edges(conn: sqlite3.Connection, callers: Iterable[str], bounds: dict[str, Bound],
                       window: tuple[str, str, int, int] | None = None
                       ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The trace's edges publisher -> subscribed handler (kind `Subscription`, `via` the event type), and the stops:
    `published` (an event typed as a type parameter the trace cannot fill in), `no_subscriber` (no subscription of
    its type on that bus), `subscribed` (a subscription whose handler the facts cannot tell: a lambda over several
    lines; `subscriber` names the member subscribing). `bounds` and `window` as queues.queue_edges takes them."""
    found = buses(conn)
    edges: list[dict[str, Any]] = []
    stops: list[dict[str, Any]] = []
    if not found.publish_buses:
        return edges, stops
    for pub in generic_calls(conn, callers, found.publish_buses):
        if pub.outside(window):
            continue
        events = pub.types(bounds)
        place = {"at": pub.caller, "publish": pub.method, "file": pub.file, "line": pub.line}
        if not events:
            stops.append({"reason": "published", **place,
                          **({"event": pub.type_argument} if pub.type_argument else {})})
        for event in events:
            subscribed = _subscribed(found, pub.method, event)
            if not subscribed:
                stops.append({"reason": "no_subscriber", **place, "event": event})
            for sub in subscribed:
                for handler in sub.handlers:
                    edges.append({"from": pub.caller, "to": handler, "kind": "Subscription", "via": event, "count": 1,
                                  "file": pub.file, "line": pub.line})
                if not sub.handlers:
                    stops.append({"reason": "subscribed", **place, "event": event, "subscriber": sub.subscriber,
                                  "subscribed_at": f"{sub.file}:{sub.line}"})
    return edges, stops


def publishers(conn: sqlite3.Connection, members: Iterable[str]) -> dict[str, list[str]]:
    """Subscribed handler -> the members publishing its event on its bus (a publish inferring the event's type)."""
    found = buses(conn)
    asked = set(members)
    mine = [s for s in found.subscriptions if asked.intersection(s.handlers)]
    if not mine:
        return {}
    by_event: dict[tuple[str, str], set[str]] = memo(conn, "bus_publishers", lambda: _publishers(conn, found))
    out: dict[str, set[str]] = {}
    for sub in mine:
        bus = found.subscribe_bus[sub.method]
        for (publish, event), callers in by_event.items():
            if event == sub.event and bus in found.publish_buses[publish]:
                for handler in asked.intersection(sub.handlers):
                    out.setdefault(handler, set()).update(callers)
    return {h: sorted(c) for h, c in out.items() if c}


def _publishers(conn: sqlite3.Connection, found: Buses) -> dict[tuple[str, str], set[str]]:
    """(publish method, event type) -> the members publishing that event through it."""
    out: dict[tuple[str, str], set[str]] = {}
    for caller, publish, event in typed_calls_of(conn, found.publish_buses):
        out.setdefault((publish, event), set()).add(caller)
    return out
