"""Commands pushed on a queue of the solution and run later by the handler built for their type (Radarr's
`IManageCommandQueue.Push<TCommand>(command)`, stored, then a worker resolves `IExecute<TCommand>` and calls
`Execute(command)` on an object typed at run time): no bound call joins the push to the handler, so the link is read
from the types (graph_trace_feature's `Queue` edge; the senders impact_analyze, tests_find and graph_callers' warning
walk back, query/senders.py).

- A handler interface: a generic interface of the solution with one type parameter, not variant, constrained to a
  type C, declaring one method, whose only parameter is that type parameter (`IExecute<TCommand> where TCommand :
  Command { void Execute(TCommand m); }`).
- A queue: a generic method of the solution with one type parameter constrained to C too, taking it as a parameter
  (`Push<TCommand>(TCommand c) where TCommand : Command`), or a member implementing or overriding one, that does not
  itself reach the handler interface's method through bound calls (an event aggregator's `PublishEvent<TEvent>`
  calls `IHandle<TEvent>.Handle`: its handlers are call edges already, query/typeargs.py).
- A call of a queue whose inferred type argument is a type R (a `GenericCall` fact) queues R: the handlers that run
  it are the implementations of the interface's method that fill R in (`RefreshService.Execute(RefreshCommand)`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from roslynmap.query.graph import dispatch_closure
from roslynmap.query.keys import ids_of, keys_of
from roslynmap.query.sql import in_chunks, memo
from roslynmap.query.typeargs import Bound, filled_in, generic_calls, parameters, typed_calls_of

# Bound calls followed from a candidate queue looking for the handler method it would call itself.
QUEUE_HOPS = 3
_WHERE = re.compile(r"\bwhere\s+(\w+)\s*:\s*(.+?)(?=\s+where\s+\w+\s*:|$)")
_KEYWORDS = frozenset({"class", "class?", "struct", "new()", "notnull", "unmanaged", "default"})


@dataclass(frozen=True)
class Queues:
    """What the solution's queues are (once per connection)."""

    handled_by: dict[str, tuple[str, ...]]  # queue method id -> the handler interface methods its commands run
    interfaces: dict[str, str]  # handler interface method id -> its interface's id


def queues(conn: sqlite3.Connection) -> Queues:
    return memo(conn, "command_queues", lambda: _find(conn))


def _constraints(signature: str | None, parameter: str) -> set[str]:
    """The simple names of the types a `where parameter : ...` clause of a signature names (keywords left out)."""
    out: set[str] = set()
    for name, listed in _WHERE.findall(signature or ""):
        if name != parameter:
            continue
        depth, start = 0, 0
        parts = []
        for i, c in enumerate(listed):
            depth += (c == "<") - (c == ">")
            if c == "," and depth == 0:
                parts.append(listed[start:i])
                start = i + 1
        parts.append(listed[start:])
        for part in (p.strip() for p in parts):
            if part and part not in _KEYWORDS:
                out.add(part.split("<", 1)[0].rsplit(".", 1)[-1].strip())
    return out


def _type_parameter(signature: str | None) -> str | None:
    """The one type parameter a generic declaration's signature names (`Push<TCommand>(...)`), else None."""
    match = re.search(r"<\s*(?:in\s+|out\s+)?(\w+)\s*>\s*(?:\(|where\b|:|$)", signature or "")
    return match.group(1) if match else None


def _resolved(conn: sqlite3.Connection, member: str, names: set[str]) -> set[str]:
    """The ids the TypeRefs of `member` (its declaration's constraint clause among them) bind these names to."""
    if not names:
        return set()
    keys = keys_of(conn, [member])
    if member not in keys:
        return set()
    rows = conn.execute("SELECT DISTINCT target_key FROM refs WHERE from_key = ? AND kind = 'TypeRef' AND target_key"
                        f" IS NOT NULL AND target_name IN ({', '.join('?' for _ in names)})",
                        [keys[member], *sorted(names)]).fetchall()
    return set(ids_of(conn, [int(r[0]) for r in rows]).values())


def _find(conn: sqlite3.Connection) -> Queues:
    interfaces: dict[str, str] = {}  # handler interface method -> interface
    by_constraint: dict[str, set[str]] = {}  # C -> handler interface methods
    for type_id, signature in conn.execute("SELECT symbol_id, signature FROM symbols WHERE kind = 'Interface' AND"
                                           " symbol_id LIKE '%`1' AND signature LIKE '%where %'").fetchall():
        parameter = _type_parameter(signature)
        if parameter is None or re.search(r"<\s*(in|out)\s", signature or ""):
            continue  # a variant interface: a handler of a base type serves derived ones
        methods = [str(r[0]) for r in conn.execute("SELECT symbol_id FROM symbols WHERE container_id = ? AND kind ="
                                                   " 'Method'", (type_id,))]
        if len(methods) != 1 or parameters(methods[0]) != ["`0"]:
            continue
        for constraint in _resolved(conn, str(type_id), _constraints(signature, parameter)):
            by_constraint.setdefault(constraint, set()).add(methods[0])
            interfaces[methods[0]] = str(type_id)
    if not by_constraint:
        return Queues({}, {})
    handled_by: dict[str, set[str]] = {}
    for method_id, signature in conn.execute("SELECT symbol_id, signature FROM symbols WHERE kind = 'Method' AND"
                                             " symbol_id LIKE '%``1(%' AND signature LIKE '%where %'").fetchall():
        parameter = _type_parameter(signature)
        if parameter is None or "``0" not in parameters(str(method_id)):
            continue
        for constraint in _resolved(conn, str(method_id), _constraints(signature, parameter)):
            if constraint in by_constraint:
                handled_by.setdefault(str(method_id), set()).update(by_constraint[constraint])
    if not handled_by:
        return Queues({}, interfaces)
    # An implementation or override of a queue (its constraints are the member's it implements) is one too.
    keys = keys_of(conn, handled_by)
    closure = dispatch_closure(conn, keys.values(), upward=False)
    names = ids_of(conn, {i for impls in closure.values() for i in impls})
    for member, key in keys.items():
        for impl in closure.get(key, []):
            handled_by.setdefault(names[impl], set()).update(handled_by[member])
    calling = _calling_their_handlers(conn, handled_by)
    return Queues({q: tuple(sorted(h)) for q, h in handled_by.items() if q not in calling}, interfaces)


def _calling_their_handlers(conn: sqlite3.Connection, handled_by: dict[str, set[str]]) -> set[str]:
    """The candidate queues that reach one of their handler methods through bound calls (and the implementations of
    the members called) within QUEUE_HOPS: they run the handler themselves."""
    out: set[str] = set()
    keys = keys_of(conn, [*handled_by, *(h for hs in handled_by.values() for h in hs)])
    for queue, handlers in handled_by.items():
        wanted = {keys[h] for h in handlers if h in keys}
        if queue not in keys or not wanted:
            continue
        # From the queue and its implementations (an interface's member has no body of its own).
        start = {keys[queue], *dispatch_closure(conn, [keys[queue]], upward=False)[keys[queue]]}
        seen, frontier = set(start), sorted(start)
        for _ in range(QUEUE_HOPS):
            called = {int(r[0]) for r in in_chunks(conn, "SELECT DISTINCT target_key FROM refs WHERE kind = 'Call' AND"
                                                         " target_key IS NOT NULL AND from_key IN ({marks})", frontier)}
            called |= {i for impls in dispatch_closure(conn, called, upward=False).values() for i in impls}
            if called & wanted:
                out.add(queue)
                break
            frontier = sorted(called - seen)
            seen |= called
            if not frontier:
                break
    return out


def _handlers(conn: sqlite3.Connection, interface_methods: Iterable[str]) -> dict[tuple[str, str], list[str]]:
    """(handler interface method, command type) -> the implementations of that method that fill the command in."""
    keys = keys_of(conn, interface_methods)
    closure = dispatch_closure(conn, keys.values(), upward=False)
    names = ids_of(conn, {i for impls in closure.values() for i in impls})
    out: dict[tuple[str, str], list[str]] = {}
    for method, key in keys.items():
        for impl in closure.get(key, []):
            command = filled_in(method, names.get(impl, "")).get(0)
            if command is not None:
                out.setdefault((method, command), []).append(names[impl])
    return {k: sorted(v) for k, v in out.items()}


def handlers_of(conn: sqlite3.Connection) -> dict[tuple[str, str], list[str]]:
    """(handler interface method, command type) -> its handlers, once per connection."""
    found = queues(conn)
    return memo(conn, "queue_handlers", lambda: _handlers(conn, found.interfaces))


def queue_edges(conn: sqlite3.Connection, callers: Iterable[str], bounds: dict[str, Bound],
                window: tuple[str, str, int, int] | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The trace's edges caller -> handler for the commands the callers queue (kind `Queue`, `via` the command type),
    and the stops where a queued command's handler is not known: `queued` (a command typed as a type parameter the
    trace cannot fill in, or a base other commands derive from), `no_handler` (no handler takes it). `bounds`: the
    method type arguments each caller was called with (query/typeargs.py); `window` (caller, file, first line, last
    line): that caller's calls from those lines only (a route's lambda)."""
    found, handlers = queues(conn), handlers_of(conn)
    edges: list[dict[str, Any]] = []
    stops: list[dict[str, Any]] = []
    if not found.handled_by:
        return edges, stops
    for push in generic_calls(conn, callers, found.handled_by):
        if push.outside(window):
            continue
        commands = push.types(bounds)
        interfaces = found.handled_by[push.method]
        reached = False
        for command in commands:
            for method in interfaces:
                for handler in handlers.get((method, command), []):
                    reached = True
                    edges.append({"from": push.caller, "to": handler, "kind": "Queue", "via": command, "count": 1,
                                  "file": push.file, "line": push.line})
        if reached:
            continue
        place = {"at": push.caller, "queue": push.method, "handler_interface": found.interfaces[interfaces[0]],
                 "file": push.file, "line": push.line}
        if len(commands) == 1 and not _has_subtypes(conn, commands[0]):
            stops.append({"reason": "no_handler", **place, "request": commands[0]})
        else:
            stops.append({"reason": "queued", **place,
                          **({"request": push.type_argument} if push.type_argument else {})})
    return edges, stops


def _has_subtypes(conn: sqlite3.Connection, type_id: str) -> bool:
    return conn.execute("SELECT 1 FROM relations WHERE related_id = ? AND kind IN ('base', 'interface') LIMIT 1",
                        (type_id,)).fetchone() is not None


def queue_senders(conn: sqlite3.Connection, members: Iterable[str]) -> dict[str, list[str]]:
    """Handler method -> the members that queue its command (a call of a queue inferring the command's type); a
    generic helper handing its own type parameter on is a queue itself, so its callers are the senders."""
    found = queues(conn)
    if not found.handled_by:
        return {}
    wanted: dict[str, set[tuple[str, str]]] = {}  # handler -> (interface method, command)
    for (method, command), handles in handlers_of(conn).items():
        for handle in handles:
            wanted.setdefault(handle, set()).add((method, command))
    asked = {m: wanted[m] for m in members if m in wanted}
    if not asked:
        return {}
    by_command: dict[tuple[str, str], set[str]] = memo(conn, "queue_senders_by_command", lambda: _senders(conn, found))
    return {handle: sorted({s for pair in pairs for s in by_command.get(pair, ())}) for handle, pairs in asked.items()
            if any(by_command.get(pair) for pair in pairs)}


def _senders(conn: sqlite3.Connection, found: Queues) -> dict[tuple[str, str], set[str]]:
    """(handler interface method, command) -> the members queueing that command on a queue running that method."""
    out: dict[tuple[str, str], set[str]] = {}
    for caller, queue, command in typed_calls_of(conn, found.handled_by):
        for method in found.handled_by[queue]:
            out.setdefault((method, command), set()).add(caller)
    return out
