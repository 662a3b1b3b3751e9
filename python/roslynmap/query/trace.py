"""graph_trace_feature's walk: callees as graph.callees finds them, plus what a feature really runs.

- Calls through an interface go on into the implementations registered in DI for it (open generics
  included: `AddScoped(typeof(IRepository<>), typeof(EfRepository<>))` is stored under the generic
  definitions' ids, as every call on `IRepository<CatalogItem>` is), by a registration the call's processes load
  (`_Chooser`). Without a registration for that interface, every implementation those processes load is followed
  (query/projectrefs.py Processes).
- A mediator request (`MediatorRequest` facts: `mediator.Send(new CreateOrderCommand(...))`) goes
  on into the `Handle` of the IRequestHandler / INotificationHandler that takes the request type. One no handler
  takes, sent on the solution's own bus whose code calls its handlers (`IHandle<TEvent>.Handle`), is walked through
  that code like any call, and is no stop (`_sent_in_process`).
- A command pushed on a queue of the solution (`queue.Push(new RefreshCommand())`) goes on into the handler built
  for its type (`IExecute<RefreshCommand>.Execute`, query/queues.py), edge kind `Queue`.
- An event published on a bus of the solution (`bus.Publish(new OrderPlaced())`) goes on into the handlers subscribed
  to its type as delegates (`bus.Subscribe<OrderPlaced>(OnOrderPlaced)`, query/subscriptions.py), edge kind
  `Subscription`.
- A message published to a topic by name (`capBus.PublishAsync("orders.created", o)`) goes on into the methods
  subscribed to that topic by an attribute (`[CapSubscribe("orders.created")]`, query/topics.py), edge kind `Topic`.
- An HTTP call of a path another app of the solution serves (`http.GetFromJsonAsync($"vehicleinfo/{id}")`) goes on
  into the action serving it (query/httpcalls.py), edge kind `Http`.
- Noise is dropped and counted: unbound LINQ/framework calls (`Where`, `ToListAsync`...), `base`/`this`,
  and constructor chaining into a base class's constructor.
- Every place the walk could not go on is said, with why (`Stop`): the depth limit, an unbound call,
  an interface member with no implementation in the solution (or one DI registers outside it),
  and calls into package or framework code.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from roslynmap.query import (
    dispatch,
    generated,
    graph,
    httpcalls,
    projectrefs,
    queues,
    sagas,
    subscriptions,
    topics,
    typeargs,
)
from roslynmap.query.keys import ids_of, key_of, keys_of
from roslynmap.query.projectrefs import Hosts, referenced, within
from roslynmap.query.shared_ids import restriction, shared_ids
from roslynmap.query.sql import in_chunks, marks, memo
from roslynmap.query.unbound import candidates_of

if TYPE_CHECKING:
    from roslynmap.query.surfaces import LambdaWindow, Registered, RequestWrapper

# Unbound calls by these names are LINQ, EF Core query operators or object members: never solution code
# worth a node (a bound call into them is external and is not a node either).
NOISE_NAMES = frozenset("""
Where Select SelectMany First FirstOrDefault Single SingleOrDefault Last LastOrDefault Any All Count LongCount
Sum Min Max Average OrderBy OrderByDescending ThenBy ThenByDescending GroupBy Join GroupJoin Skip Take
SkipWhile TakeWhile Distinct DistinctBy Contains Concat Union Intersect Except Aggregate Cast OfType Reverse
Zip Append Prepend ToList ToArray ToDictionary ToHashSet ToLookup AsEnumerable AsQueryable DefaultIfEmpty
ElementAt ElementAtOrDefault SequenceEqual ToListAsync ToArrayAsync FirstOrDefaultAsync FirstAsync
SingleOrDefaultAsync SingleAsync AnyAsync AllAsync CountAsync SumAsync MaxAsync MinAsync ToDictionaryAsync
Include ThenInclude AsNoTracking AsTracking AsSplitQuery ConfigureAwait ToString Equals GetHashCode GetType
nameof base this
""".split())  # noqa: SIM905 (a word list reads better)
HANDLER_INTERFACES = ("IRequestHandler", "INotificationHandler", "IStreamRequestHandler",
                      # martinothamar/Mediator (source-generated): its own command, query and stream handlers
                      "ICommandHandler", "IQueryHandler", "IStreamCommandHandler", "IStreamQueryHandler",
                      # event handlers: eShopOnContainers, MassTransit, NServiceBus/Rebus, common hand-rolled names
                      "IIntegrationEventHandler", "IConsumer", "IHandleMessages", "IEventHandler",
                      "IDomainEventHandler")
HANDLE_METHODS = ("Handle", "HandleAsync", "Consume")
# A relation to an interface; one the compiler could not bind (its package did not restore) is written `base`.
UNBOUND_OR_INTERFACE = "(rel.kind = 'interface' OR (rel.kind = 'base' AND rel.related_id IS NULL))"
EXTERNAL_EXAMPLES = 8


@dataclass
class Trace:
    graph: graph.Graph
    stops: list[dict[str, Any]] = field(default_factory=list)
    noise: int = 0
    external: dict[str, int] = field(default_factory=dict)  # external target id -> calls, framework included
    narrowed: int = 0  # implementations left out of a dispatch for another instantiated above the call


def _symbols(conn: sqlite3.Connection, ids: set[str]) -> dict[str, tuple[str, str | None]]:
    """(kind, container id) per declared symbol."""
    rows = in_chunks(conn, "SELECT symbol_id, kind, container_id FROM symbols WHERE symbol_id IN ({marks})", ids)
    return {r[0]: (r[1], r[2]) for r in rows}


def handle_methods_of_handlers(conn: sqlite3.Connection) -> list[str]:
    """The Handle (HandleAsync, Consume) methods of the solution's handler classes (once per connection: a trace
    asks at every level), and those of convention handlers taking a message a mediator is sent."""
    return [*_interface_handle_methods(conn), *convention_handle_methods(conn)]


def _interface_handle_methods(conn: sqlite3.Connection) -> list[str]:
    def compute() -> list[str]:
        own = own_handler_interfaces(conn)
        return [str(r[0]) for r in conn.execute(
            "SELECT DISTINCT s.symbol_id FROM symbols s JOIN relations rel ON rel.type_id = s.container_id"
            f" WHERE s.name IN ({marks(list(HANDLE_METHODS))}) AND s.kind = 'Method' AND {UNBOUND_OR_INTERFACE}"
            f" AND (rel.related_name IN ({marks(list(HANDLER_INTERFACES))}) OR rel.related_id IN ({marks(own)}))",
            [*HANDLE_METHODS, *HANDLER_INTERFACES, *own]).fetchall()]
    return list(memo(conn, "handler_handle_methods", compute))


# Foundatio.Mediator's and Wolverine's handlers implement no interface: a class named *Handler (*Consumer) whose Handle
# (HandleAsync, Consume, ConsumeAsync) takes the message first is found by its name (Exceptionless's minimal API sends
# `mediator.InvokeAsync(new GetTokensByOrganization(...))` to `TokenHandler.Handle(GetTokensByOrganization)`).
_CONVENTION_METHODS = (*HANDLE_METHODS, "ConsumeAsync")
_CONVENTION_CLASSES = ("Handler", "Consumer")


def convention_handle_methods(conn: sqlite3.Connection) -> list[str]:
    """Handle-like methods of *Handler/*Consumer classes implementing no handler interface whose first parameter is
    exactly a solution type some MediatorRequest sends (not an interface or base of it: the concrete message
    decides); once per connection."""
    return list(memo(conn, "convention_handle_methods", lambda: _convention_handle_methods(conn)))


def _convention_handle_methods(conn: sqlite3.Connection) -> list[str]:
    sent = {str(r[0])[2:] for r in conn.execute(
        "SELECT DISTINCT fa.key FROM facts fa WHERE fa.kind = 'MediatorRequest' AND fa.key LIKE 'T:%'"
        " AND EXISTS (SELECT 1 FROM symbols t WHERE t.symbol_id = fa.key)")}
    if not sent:
        return []
    # Wolverine's handlers may be static (EventSourcing.NetCore's ResolveFromBatchHandler.Handle).
    static = 1 if uses_wolverine(conn) else 0
    rows = conn.execute(
        "SELECT DISTINCT m.symbol_id, c.name FROM symbols m JOIN symbols c ON c.symbol_id = m.container_id WHERE"
        f" m.kind = 'Method' AND m.is_static <= ? AND m.name IN ({marks(list(_CONVENTION_METHODS))})",
        [static, *_CONVENTION_METHODS]).fetchall()
    by_interface = set(_interface_handle_methods(conn))
    return sorted(str(sid) for sid, owner in rows if str(owner).endswith(_CONVENTION_CLASSES)
                  and handled_message(str(sid)) in sent and str(sid) not in by_interface)


# Wolverine's handler methods, found by name on a class named *Handler or *Consumer, static or not.
WOLVERINE_HANDLER_METHODS = frozenset({f"{verb}{s}{a}" for verb in ("Handle", "Consume") for s in ("", "s")
                                       for a in ("", "Async")})


def uses_wolverine(conn: sqlite3.Connection) -> bool:
    """The solution references Wolverine's assemblies, or (not restored) calls UseWolverine/AddWolverine."""
    return memo(conn, "uses_wolverine", lambda: conn.execute(
        "SELECT 1 FROM externals WHERE assembly = 'Wolverine' OR assembly LIKE 'Wolverine.%' LIMIT 1"
    ).fetchone() is not None or conn.execute(
        "SELECT 1 FROM refs WHERE target_key IS NULL AND target_name IN ('UseWolverine', 'AddWolverine') LIMIT 1"
    ).fetchone() is not None)


def wolverine_handlers(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Message type id -> the public Wolverine handler methods taking it first (none when the solution does not use
    Wolverine); once per connection."""
    def compute() -> dict[str, list[str]]:
        if not uses_wolverine(conn):
            return {}
        rows = conn.execute(
            "SELECT DISTINCT m.symbol_id, c.name FROM symbols m JOIN symbols c ON c.symbol_id = m.container_id WHERE"
            f" m.kind = 'Method' AND m.visibility = 'public' AND m.name IN ({marks(list(WOLVERINE_HANDLER_METHODS))})",
            list(WOLVERINE_HANDLER_METHODS)).fetchall()
        found: dict[str, list[str]] = {}
        for sid, owner in sorted((str(r[0]), str(r[1])) for r in rows):
            if str(owner).split("`", 1)[0].endswith(_CONVENTION_CLASSES):
                found.setdefault("T:" + handled_message(str(sid)), []).append(str(sid))
        return found
    return memo(conn, "wolverine_handlers", compute)


def _cascaded_edges(conn: sqlite3.Connection, made_at: dict[tuple[str, str], tuple[str, int]],
                    sent: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """Wolverine cascades the messages an endpoint or handler returns (and the events it appends, when Marten
    forwards them) to the handlers taking them: edges from a member that instantiates such a message to each
    handler, `inferred: "cascaded"` (EventSourcing.NetCore's batch endpoint -> ResolveFromBatchHandler.Handle).
    Made is not proof of returned: the edge says it is inferred. A message the member also sends on a bus is the
    send's edge alone."""
    handlers = wolverine_handlers(conn)
    edges: list[dict[str, Any]] = []
    for (caller, message), (path, line) in sorted(made_at.items()):
        if (caller, message) in sent:
            continue
        edges.extend({"from": caller, "to": handler, "kind": "Mediator", "via": message, "count": 1, "file": path,
                      "line": line, "inferred": "cascaded"}
                     for handler in handlers.get(message, []) if handler != caller)
    return edges


def first_parameter(method_id: str) -> str:
    """`M:A.Handle(X.Y,System.Threading.CancellationToken)` -> `X.Y` (generic arguments' commas kept)."""
    inside = method_id.partition("(")[2].rstrip(")")
    depth = 0
    for i, c in enumerate(inside):
        depth += (c == "{") - (c == "}")
        if c == "," and depth == 0:
            return inside[:i]
    return inside


# MassTransit hands a consumer its message in a context: `Consume(ConsumeContext<SubmitOrder> context)`.
_MESSAGE_CONTEXT = re.compile(r"^(?:MassTransit\.)?ConsumeContext\{(.+)\}$")  # unbound, written bare


def handled_message(method_id: str) -> str:
    """The message a Handle-like method takes: its first parameter, or the message in MassTransit's context
    (`M:A.Consume(MassTransit.ConsumeContext{X.SubmitOrder})` -> `X.SubmitOrder`)."""
    parameter = first_parameter(method_id)
    context = _MESSAGE_CONTEXT.match(parameter)
    return context.group(1) if context else parameter


# A MassTransit saga state machine (Sample-Twitch's `OrderStateMachine : MassTransitStateMachine<OrderState>`) takes a
# message at an `Event<OrderSubmitted> OrderSubmitted { get; }` property; what it does then is written in its
# constructor (`Initially(When(OrderSubmitted).Then(...))`), for every event at once.
_STATE_MACHINE_BASES = ("MassTransitStateMachine", "AutomatonymousStateMachine")
_EVENT_PROPERTY = re.compile(r"\bEvent<([A-Za-z_][\w.]*)>\s")


def saga_events(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Message type id -> the `Event<T>` properties of the solution's saga state machines that take it (the type
    the property's signature names, bound by its TypeRef); once per connection."""
    def compute() -> dict[str, list[str]]:
        rows = conn.execute(
            "SELECT p.symbol_id, p.signature, t.symbol_id, t.name FROM symbols p"
            " JOIN relations rel ON rel.type_id = p.container_id AND rel.kind = 'base'"
            " JOIN ids pk ON pk.symbol_id = p.symbol_id JOIN refs r ON r.from_key = pk.key AND r.kind = 'TypeRef'"
            " JOIN ids i ON i.key = r.target_key JOIN symbols t ON t.symbol_id = i.symbol_id"
            f" WHERE p.kind = 'Property' AND rel.related_name IN ({marks(list(_STATE_MACHINE_BASES))})",
            list(_STATE_MACHINE_BASES)).fetchall()
        found: dict[str, set[str]] = {}
        for prop, signature, message, name in rows:
            written = _EVENT_PROPERTY.search(str(signature or ""))
            if written and written.group(1).rsplit(".", 1)[-1] == name:
                found.setdefault(str(message), set()).add(str(prop))
        return {m: sorted(props) for m, props in found.items()}
    return dict(memo(conn, "saga_events", compute))


def handlers_of(conn: sqlite3.Connection, requests: set[str]) -> dict[str, list[str]]:
    """Request type id -> the Handle methods of the solution's handlers that take it: those whose first parameter
    is that type, else (a generic request) those with a TypeRef to it; none for a base type or interface that
    other types derive from (a Handle naming it in its body is not its handler: the concrete request decides)."""
    if not requests:
        return {}
    handle_ids = handle_methods_of_handlers(conn)
    # One lookup each (impact_analyze and tests_find ask at every level of their walk).
    keys = {k: h for h, k in keys_of(conn, handle_ids).items()}
    request_keys = {k: r for r, k in keys_of(conn, requests).items()}
    found: dict[str, list[str]] = {}
    wanted = list(request_keys)
    known = list(keys)
    if not wanted or not known:
        return {}
    rows = conn.execute(f"SELECT DISTINCT from_key, target_key FROM refs WHERE kind = 'TypeRef' AND from_key IN"
                        f" ({marks(known)}) AND target_key IN ({marks(wanted)})", [*known, *wanted]).fetchall()
    for from_key, target_key in rows:
        found.setdefault(request_keys[target_key], []).append(keys[from_key])
    out: dict[str, list[str]] = {}
    for request, handles in found.items():
        taking = [h for h in handles if handled_message(h) == request[2:]]
        if taking:
            out[request] = sorted(taking)
        elif not _has_subtypes(conn, request):
            out[request] = sorted(handles)
    sagas = saga_events(conn)
    for request in requests:
        if sagas.get(request):
            out[request] = [*out.get(request, []), *sagas[request]]
    return out


def _subtype_handlers(conn: sqlite3.Connection, request: str) -> int:
    """How many handlers take a type deriving from `request` (a type id, or `?Name` for a base of a package that
    did not restore); once per request and connection."""
    counted = memo(conn, "subtype_handlers", dict)
    if request not in counted:
        counted[request] = _count_subtype_handlers(conn, request)
    return int(counted[request])


def _count_subtype_handlers(conn: sqlite3.Connection, request: str) -> int:
    if request.startswith("?"):
        rows = conn.execute("SELECT DISTINCT type_id FROM relations WHERE related_id IS NULL AND related_name = ?"
                            " AND kind IN ('base', 'interface')", (request[1:],)).fetchall()
    else:
        rows = conn.execute("SELECT DISTINCT type_id FROM relations WHERE related_id = ?"
                            " AND kind IN ('base', 'interface')", (request,)).fetchall()
    below, frontier = {str(r[0]) for r in rows}, [str(r[0]) for r in rows]
    for _ in range(8):
        if not frontier:
            break
        more = {str(r[0]) for r in in_chunks(conn, "SELECT DISTINCT type_id FROM relations WHERE kind IN"
                                                   " ('base', 'interface') AND related_id IN ({marks})", frontier)}
        frontier = sorted(more - below)
        below |= more
    return sum(len(h) for h in handlers_of(conn, below).values()) if below else 0


def _has_subtypes(conn: sqlite3.Connection, type_id: str) -> bool:
    return conn.execute("SELECT 1 FROM relations WHERE related_id = ? AND kind IN ('base', 'interface') LIMIT 1",
                        (type_id,)).fetchone() is not None


def _handlers_by_name(conn: sqlite3.Connection, events: set[str]) -> dict[str, list[str]]:
    """Event type id -> the Handle methods whose first parameter is a type of the same name in another project:
    services that share an event by name, each with its own class (eShopOnContainers' integration events)."""
    by_name: dict[str, list[str]] = {}
    for handle in handle_methods_of_handlers(conn):
        by_name.setdefault(handled_message(handle).rsplit(".", 1)[-1], []).append(handle)
    return {e: sorted(by_name[e.rsplit(".", 1)[-1]]) for e in events if e.rsplit(".", 1)[-1] in by_name}


class _MadeAbove:
    """The types a node and the nodes above it in the trace instantiate, asked per caller; `reset` when the tree
    has grown a level (the parents of each node are read from its edges once per level)."""

    def __init__(self, g: graph.Graph, made: dict[str, set[str]]) -> None:
        self.g, self.made = g, made
        self.parents: dict[str, set[str]] | None = None
        self.cache: dict[str, set[str]] = {}

    def reset(self) -> None:
        self.parents, self.cache = None, {}

    def of(self, sender: str) -> set[str]:
        if sender not in self.cache:
            if self.parents is None:
                self.parents = {}
                for edge in self.g.edges:
                    if edge.get("to"):
                        self.parents.setdefault(str(edge["to"]), set()).add(str(edge["from"]))
            above = {sender} | referenced(self.parents, [sender])
            self.cache[sender] = {t for node in above for t in self.made.get(node, ())}
        return self.cache[sender]


def own_handler_interfaces(conn: sqlite3.Connection) -> list[str]:
    """The solution's interfaces that extend a handler interface, directly or through each other
    (kgrzybek/modular-monolith-with-ddd: `ICommandHandler<TCommand> : IRequestHandler<TCommand>`): their
    implementers are handlers too."""
    found: set[str] = set()
    while True:
        rows = conn.execute(
            "SELECT DISTINCT rel.type_id FROM relations rel JOIN symbols s ON s.symbol_id = rel.type_id"
            f" WHERE s.kind = 'Interface' AND {UNBOUND_OR_INTERFACE}"
            f" AND (rel.related_name IN ({marks(list(HANDLER_INTERFACES))})"
            f" OR rel.related_id IN ({marks(list(found))}))",
            [*HANDLER_INTERFACES, *found]).fetchall()
        more = {str(r[0]) for r in rows} - found
        if not more:
            return sorted(found)
        found |= more


def _mediator_edges(conn: sqlite3.Connection, callers: list[str], made_above: Callable[[str], set[str]],
                    wrapped: dict[str, set[str]], window: LambdaWindow | None = None) -> list[dict[str, Any]]:
    """Edges caller -> handler for the mediator requests the callers send. A request typed only as an
    interface or a base (`mediator.Send(command)` in a generic `CommandsExecutor.Execute<T>(ICommand<T>)`,
    kgrzybek/modular-monolith-with-ddd) is taken to be one of the concrete requests the trace made on its way
    there (`made_above`: types the caller and its ancestors instantiate), `inferred: instantiated`. A request
    typed as a type parameter (eShop's `IdentifiedCommandHandler<T, R>` sends its `T`) is one of the type
    arguments of the request that reached the caller (`wrapped`: handler -> those type arguments, grown here),
    `inferred: type_argument`."""
    rows = in_chunks(conn, "SELECT fa.symbol_id, fa.key, fa.detail, f.path, fa.line, fa.col FROM facts fa LEFT JOIN"
                           " files f"
                           " ON f.id = fa.file_id WHERE fa.kind = 'MediatorRequest' AND fa.symbol_id IN ({marks})",
                     callers)
    if window is not None:  # the route's lambda sends only what its lines send
        rows = [r for r in rows
                if r[0] != window.handler or (r[3] == window.file and window.start <= r[4] <= window.end)]
    said = {(str(r[0]), r[4]): orjson.loads(r[2]) if r[2] else {} for r in rows}
    generic = {(str(r[0]), r[4]) for r in rows if said[(str(r[0]), r[4])].get("type_parameter")}
    requests = {str(r[1]) for r in rows if (str(r[0]), r[4]) not in generic}
    handlers = handlers_of(conn, requests | {t for r in rows if (str(r[0]), r[4]) in generic
                                           for t in wrapped.get(str(r[0]), ())})
    made = {str(r[0]): {t for t in made_above(str(r[0])) if _is_a(conn, t, str(r[1]))}
            for r in rows if not handlers.get(str(r[1]))}
    handlers.update(handlers_of(conn, {t for types in made.values() for t in types} - set(handlers)))
    # An event a bus carries to another service is matched by its name when no handler takes its type.
    on_bus = {t for r in rows if said[(str(r[0]), r[4])].get("bus")
              for t in ({str(r[1])} | made.get(str(r[0]), set())) if not handlers.get(t)}
    by_name = _handlers_by_name(conn, on_bus)
    edges = []
    for caller, request, _detail, path, line, col in sorted(rows, key=lambda r: (r[0], r[4])):
        # MediatR's pipeline behaviors run around a request sent on a mediator (not a notification, not a bus's event)
        behaviors = said[(caller, line)].get("call") == "Send" and not said[(caller, line)].get("bus")
        found: list[tuple[str, str, str | None]] = [(request, h, None) for h in handlers.get(request, [])]
        if (caller, line) in generic:
            found = [(t, h, "type_argument") for t in sorted(wrapped.get(caller, ())) for h in handlers.get(t, [])]
        if not found:  # a request typed as an interface, a base or a type parameter: the concrete ones made above
            found = [(t, h, "instantiated") for t in sorted(made.get(caller, ())) for h in handlers.get(t, [])
                     if h != caller]
        if not found:
            found = [(t, h, "by_name") for t in [request, *sorted(made.get(caller, ()))] for h in by_name.get(t, [])]
        for via, handler, inferred in found:
            edges.append({"from": caller, "to": handler, "kind": "Mediator", "via": via, "count": 1, "file": path,
                          "line": line, **({"inferred": inferred} if inferred else {}), "behaviors": behaviors})
            wrapped.setdefault(handler, set()).update(said[(caller, line)].get("type_args", ()))
        if not found:
            edges.append({"from": caller, "to": None, "via": request, "file": path, "line": line, "col": col})
    return edges


def _sent_in_process(conn: sqlite3.Connection, sends: list[dict[str, Any]],
                     level_edges: list[tuple[dict[str, Any], Dispatched]]) -> set[tuple[str, int, int]]:
    """(file, line, col) of the sends no handler takes whose bus (or mediator) is the solution's own and hands the
    message on in process: the member the send calls, or an implementation of it the trace runs, calls a member of a
    generic interface of the solution constructed on its own method type parameter (`Bus.Publish<TEvent>` calling
    `IHandle<TEvent>.Handle` on the handlers it resolves), directly or through generic code of the solution it hands
    that parameter to (3 hops). The trace walks that dispatch (query/typeargs.py narrows it to the event's handlers),
    so the send is no stop. A package's bus (MassTransit's IBus) has no body here, and one that hands the message to a
    broker (eShop's RabbitMQ EventBus) calls no such interface: those stay `no_handler`."""
    found: set[tuple[str, int, int]] = set()
    for send in sends:
        row = conn.execute("SELECT r.target_key FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND"
                           " r.line = ? AND r.col = ? AND r.kind = 'Call' AND r.target_key IS NOT NULL LIMIT 1",
                           (send["file"], send["line"], send["col"])).fetchone()
        target = ids_of(conn, [int(row[0])]).get(int(row[0])) if row else None
        if target is None:
            continue  # a package's member (MassTransit's IBus.Publish): no reference to a declared member
        walked = frozenset({target} | {impl for edge, dispatched in level_edges if edge["from"] == send["from"]
                                       and edge.get("to") == target for impl, _, _ in dispatched})
        # Every publisher of one bus asks about the same members (Radarr: 81): once per connection.
        handed: dict[frozenset[str], bool] = memo(conn, "trace_hands_on", dict)
        if walked not in handed:
            handed[walked] = _hands_on(conn, set(walked))
        if handed[walked]:
            found.add((send["file"], send["line"], send["col"]))
    return found


def _hands_on(conn: sqlite3.Connection, members: set[str], hops: int = 3) -> bool:
    """Whether one of `members` calls a member of a generic interface of the solution constructed on its own method
    type parameter (a GenericCall fact's ``` ``n ``` type argument), directly or through generic code of the solution
    it hands that parameter to (a generic method given it, or a generic class's member constructed on it, whose own
    `` `n `` then stands for it too)."""
    frontier = {m: "``" for m in members}  # member -> how its code writes the send's type parameter
    seen = set(frontier)
    for _ in range(hops):
        rows = in_chunks(conn, "SELECT symbol_id, key, detail FROM facts WHERE kind = 'GenericCall' AND symbol_id IN"
                               " ({marks})", sorted(frontier))
        onward: dict[str, str] = {}
        for caller, callee, detail in rows:
            try:
                said = orjson.loads(detail) if detail else {}
            except orjson.JSONDecodeError:
                continue
            mark = frontier.get(str(caller), "``")
            on_type = any(str(a).startswith(mark) for a in said.get("type_arguments") or ())
            on_method = any(str(a).startswith(mark) for a in said.get("method_type_arguments") or ())
            if on_type and _is_interface(conn, _container(conn, str(callee))):
                return True
            if (on_type or on_method) and str(callee) not in seen:
                onward[str(callee)] = "`" if on_type else "``"
        seen.update(onward)
        frontier = onward
        if not frontier:
            break
    return False


def _container(conn: sqlite3.Connection, member: str) -> str | None:
    row = conn.execute("SELECT container_id FROM symbols WHERE symbol_id = ? LIMIT 1", (member,)).fetchone()
    return str(row[0]) if row and row[0] else None


def ancestors(conn: sqlite3.Connection, types: set[str], hops: int = 8) -> set[str]:
    """The types, their base types and interfaces (the solution's declared relations); a base the compiler could
    not bind (its package did not restore) as `?Name`, the key a MediatorRequest sent typed as it has."""
    seen, frontier = set(types), list(types)
    for _ in range(hops):
        rows = in_chunks(conn, "SELECT related_id, related_name FROM relations WHERE kind IN ('base', 'interface')"
                               " AND type_id IN ({marks})", frontier)
        seen.update("?" + str(r[1]) for r in rows if r[0] is None and r[1])
        frontier = [str(r[0]) for r in rows if r[0] is not None and str(r[0]) not in seen]
        if not frontier:
            break
        seen.update(frontier)
    return seen


def _is_a(conn: sqlite3.Connection, type_id: str, wanted: str, hops: int = 8) -> bool:
    """`type_id` is `wanted` or derives from / implements it (the solution's declared relations)."""
    return wanted in ancestors(conn, {type_id}, hops)


def walk(conn: sqlite3.Connection, symbol_id: str, depth: int, limit_per_level: int,
         registered: dict[str, list[Registered]], wrappers: Sequence[RequestWrapper] = (),
         window: LambdaWindow | None = None, mapped_in: str | None = None, root_class: str | None = None) -> Trace:
    """The trace tree from `symbol_id`; `registered`: service type id -> the implementations DI registers;
    `wrappers`: pipeline behaviors and handler decorators DI runs around a request's handler; `window`: the
    route's lambda in `symbol_id`, whose lines alone are walked from the root; `mapped_in`: the file mapping the
    route, whose project's declaration of a root several projects declare is the one walked; `root_class`: the class
    the root runs on when it is a member it inherits (a controller's route to an action of its base class)."""
    g, root = graph.Graph(graph.node_info(conn, symbol_id) or {"symbol_id": symbol_id}), key_of(conn, symbol_id)
    trace = Trace(g)
    if root is None:
        return trace
    visited = {symbol_id}
    frontier = [symbol_id]
    made: dict[str, set[str]] = {}  # node -> the types it instantiates (for requests typed as an interface)
    made_above = _MadeAbove(g, made)
    wrapped: dict[str, set[str]] = {}  # handler -> type arguments of the requests that reached it
    lineage = dispatch.Lineage(conn)
    type_bounds: typeargs.TypeBounds = {}  # frontier member -> the method type arguments it was called with
    # frontier member -> what its object is known to be (dispatch.Objects): the route's controller for its root
    objects: dispatch.Objects = {root: frozenset([root_class])} if root_class else {}
    shared = shared_ids(conn)
    places: dict[int, set[int]] = {}  # a shared key walked: the projects whose declaration of it was reached
    mapping = projectrefs.file_projects(conn, [mapped_in]).get(mapped_in or "")
    if mapping is not None and shared.declared_in([root]):
        places[root] = shared.declaration_seen(root, mapping) or set(shared.declared_in([root])[root])
    processes = projectrefs.processes(conn)
    # node -> the processes it runs in, as the walk came (query/projectrefs.py Processes): the route's app for its root
    hosts: dict[str, Hosts] = {symbol_id: processes.hosts_of([mapping]) if mapping is not None
                               else processes.member_hosts(root)}
    chooser = _Chooser(conn, registered, processes)
    for level in range(1, depth + 1):
        key_by_member = {f: k for f in frontier if (k := key_of(conn, f)) is not None}
        frontier_keys = list(key_by_member.values())
        root_window = (root, window.file, window.start, window.end) if window and level == 1 else None
        only = restriction({k: places[k] for k in frontier_keys if k in places}, column="from_key")
        raw = graph._edges_out_of(conn, frontier_keys, window=root_window, only=only)
        names = ids_of(conn, (k for r in raw for k in r[:2] if k is not None))
        rows = [(names[r[0]], None if r[1] is None else names[r[1]], *r[2:]) for r in raw]
        # An unbound call whose one compiler candidate is a member of the solution goes on into it.
        sole = _sole_candidates(conn, frontier_keys)
        rows = [(r[0], sole[(r[0], r[2])], *r[2:]) if r[1] is None and (r[0], r[2]) in sole else r for r in rows]
        rows = [r for r in rows if not (r[3] == "Instantiate" and r[1] and r[1].startswith("T:"))]
        rows.sort(key=lambda r: (r[0], r[5], r[2], r[7] or ""))
        targets = {r[1] for r in rows if r[1]}
        constructed = {"T:" + t[2:].split(".#ctor", 1)[0] for t in targets if ".#ctor" in t}
        declared = _symbols(conn, targets | set(frontier) | constructed)
        leaves = _leaf_properties(conn, {t for t in targets if declared.get(t, ("",))[0] == "Property"})
        kept = []
        made_by_generator = generated.used_by(conn)
        generated_edges: list[dict[str, Any]] = []
        for row in rows:
            caller, target, name = row[0], row[1], row[2]
            if (target is None and name in NOISE_NAMES) or target in leaves or _implicit_constructor(declared, target):
                trace.noise += 1
            elif target and target in made_by_generator and target not in declared:
                # A member source generators made (not indexed): on into the solution's methods it runs.
                generated_edges.extend({"from": caller, "to": used, "kind": "Generated", "via": target,
                                        "generator": generated.short(use.generator), "count": row[4],
                                        "file": row[6], "line": row[5]}
                                       for used, use in made_by_generator[target] if used.startswith("M:"))
            elif target and target not in declared:
                trace.external[target] = trace.external.get(target, 0) + row[4]
            elif target and _base_constructor(declared, caller, target):
                trace.noise += 1
            else:
                kept.append(row)
        # Implementations of interface/virtual members called, narrowed to those DI registers.
        target_keys = {t: key_of(conn, t) for t in targets if t in declared}
        dispatch_of = graph.dispatch_closure(conn, [k for k in target_keys.values() if k is not None], upward=False)
        impl_names = ids_of(conn, (i for impls in dispatch_of.values() for i in impls))
        impl_info = _symbols(conn, set(impl_names.values()))
        implementations = {target: [impl_names[i] for i in dispatch_of.get(tkey, [])] if tkey is not None else []
                           for target, tkey in target_keys.items()}
        chooser.learn(impl_names, impl_info)
        made_at: dict[tuple[str, str], tuple[str, int]] = {}  # (member, type it instantiates) -> first place
        for caller, target, _name, kind, _count, line, file, _receiver in kept:
            if kind == "Instantiate" and target and ".#ctor" in target:
                made_type = "T:" + target[2:].split(".#ctor", 1)[0]
                made.setdefault(caller, set()).add(made_type)
                made_at.setdefault((caller, made_type), (file, line))

        made_above.reset()  # the tree grew a level, and `made` this level's instantiations
        mediator = _mediator_edges(conn, frontier, made_above.of, wrapped, window if level == 1 else None)
        mediator = _wrapped(conn, mediator, wrappers)
        mediator.extend(_cascaded_edges(conn, made_at, {(e["from"], e["via"]) for e in mediator if e.get("via")}))
        for edge in mediator:
            edge.pop("behaviors", None)
        mediator.extend(generated_edges)
        sends = {(e["from"], e["line"]) for e in mediator}
        # A command pushed on a queue goes on into the handler built for its type (query/queues.py), or stops there.
        bound_of = {f: type_bounds[k] for f, k in key_by_member.items() if k in type_bounds}
        lambda_window = (window.handler, window.file, window.start, window.end) if window and level == 1 else None
        queued, queue_stops = queues.queue_edges(conn, frontier, bound_of, lambda_window)
        mediator.extend(queued)
        trace.stops.extend(queue_stops)
        # An event published on a bus of the solution goes on into the handlers subscribed to its type as delegates
        # (query/subscriptions.py), or stops there.
        published, publish_stops = subscriptions.subscription_edges(conn, frontier, bound_of, lambda_window)
        mediator.extend(published)
        trace.stops.extend(publish_stops)
        # A message published to a topic by name goes on into the methods subscribed to it (query/topics.py).
        by_topic, topic_stops = topics.topic_edges(conn, frontier, lambda_window)
        mediator.extend(by_topic)
        trace.stops.extend(topic_stops)
        # An HTTP call of a path another app of the solution serves goes on into that action (query/httpcalls.py).
        mediator.extend(httpcalls.http_edges(conn, frontier, lambda_window))
        # A state machine's event goes on into its behaviours, the lambdas and activities its `When` chain wires.
        mediator.extend(sagas.saga_edges(conn, frontier))
        # Those sites are also `bus` MediatorRequest facts: said once, by the subscription's edge or stop.
        on_bus = {(e["file"], e["line"]) for e in [*published, *publish_stops]}
        admitted = graph._Level(g, visited, level, limit_per_level)
        runs = _Runs(conn, lineage, frontier_keys, {**names, **impl_names}, target_keys, type_bounds, implementations,
                     objects)
        outside: set[str] = set()  # targets whose DI registrations name no implementation of the solution
        unresolved: dict[str, dict[str, Any]] = {}
        candidates: dict[str, None] = {}
        level_edges: list[tuple[dict[str, Any], Dispatched]] = []
        registered_impls: set[str] = set()
        wrapped_by: dict[str, str] = {}  # built by a DI factory inside the type it registers -> that type
        for caller, target, name, kind, count, line, file, receiver in kept:
            key, edge = graph.call_edge(caller, target, name, kind, count, line, file, receiver, unresolved)
            if target is not None and sole.get((caller, name)) == target:
                edge["inferred"] = "sole_candidate"
            if target is None:
                trace.stops.append({"reason": "unbound", "at": caller, "call": name, "file": file, "line": line,
                                    **({"receiver": receiver} if receiver else {})})
            choice = chooser.of(target, declared[target][1] if target else None, implementations.get(target or "", []),
                                hosts.get(caller))
            if choice.outside and target and target not in outside:
                outside.add(target)
                trace.stops.append({"reason": "registered_outside_solution", "at": target,
                                    "registered": choice.outside[:3]})
            if (target and declared[target][0] in ("Method", "Property", "Event", "Indexer") and not choice.runs
                    and not registered.get(declared[target][1] or "") and _is_interface(conn, declared[target][1])
                    and (caller, line) not in sends):
                trace.stops.append({"reason": "no_implementation", "at": target, "from": caller, "file": file,
                                    "line": line})
            dispatched = _dispatched(conn, trace, runs.of(caller, target, choice.runs), choice.constructed,
                                     impl_info, functools.partial(made_above.of, caller))
            level_edges.append((edge, dispatched))
            candidates.setdefault(key, None)
            for impl, is_registered, _ in dispatched:
                candidates.setdefault(impl, None)
                if is_registered:
                    registered_impls.add(impl)
                    if impl in choice.wrapped_by:
                        wrapped_by.setdefault(impl, choice.wrapped_by[impl])
        in_process = _sent_in_process(conn, [e for e in mediator if e["to"] is None], level_edges)
        for edge in mediator:
            if edge["to"] is None and (edge["file"], edge["line"], edge.pop("col", None)) in in_process:
                continue  # the solution's own bus hands it to its handlers: the trace walks on through that code
            if edge["to"] is None and (edge["file"], edge["line"]) in on_bus:
                continue
            if edge["to"] is None:
                # Sent typed as a base whose subtypes have handlers (a dispatcher publishing each IDomainEvent an
                # aggregate raised): the object's run-time type decides, not "no handler".
                below = _subtype_handlers(conn, str(edge["via"]))
                trace.stops.append({"reason": "sent_as_base" if below else "no_handler", "at": edge["from"],
                                    "request": edge["via"], "file": edge["file"], "line": edge["line"],
                                    **({"handlers": below} if below else {})})
            else:
                candidates.setdefault(edge["to"], None)
        for node_id in candidates:
            admitted.admit(node_id)
        for edge, dispatched in level_edges:
            if edge["to"] in visited:
                g.edges.append(edge)
            for impl, _, inferred in dispatched:
                if impl in visited:
                    g.edges.append({**edge, "to": impl, "kind": "Dispatch", "via": edge["to"],
                                    **({"inferred": inferred} if inferred else {})})
        g.edges.extend(e for e in mediator if e["to"] is not None and e["to"] in visited)
        info = graph.nodes_info(conn, [n for n in admitted.admitted if n not in unresolved])
        for node_id in admitted.admitted:
            node = {**(info.get(node_id) or unresolved[node_id]), "depth": level}
            if node_id in registered_impls:
                node["di_registered"] = True
                if node_id in wrapped_by:
                    node["di_wrapped_by"] = wrapped_by[node_id]
            g.nodes.append(node)
        frontier = [n for n in admitted.admitted if n in info]
        type_bounds, objects = runs.carried(level_edges)
        hosts = chooser.carried(hosts, level_edges, [e for e in mediator if e["to"] is not None])
        # An id several projects declare goes on only into the declarations this level's calls name (graph.callees).
        next_keys = [k for k in (key_of(conn, f) for f in frontier) if k is not None]
        places.update(graph.declarations_called(conn, shared, frontier_keys, list(shared.declared_in(next_keys)), only,
                                                root_window, graph.CALL_EDGE))
        if not frontier:
            break
    else:
        _depth_stops(conn, trace, frontier, depth)
    return trace


def _wrapped(conn: sqlite3.Connection, edges: list[dict[str, Any]],
             wrappers: Sequence[RequestWrapper]) -> list[dict[str, Any]]:
    """Before each edge into a request's handler, edges into the Handle of what DI runs around it: every
    pipeline behavior (a mediator's Send) and each decorator of an interface the handler's type implements."""
    if not wrappers:
        return edges
    handles = _declared_handles(conn, {w.implementation_id for w in wrappers})
    declared = _symbols(conn, {e["to"] for e in edges if e["to"] is not None})
    narrower = {w.implementation_id: _narrower_interfaces(conn, w) for w in wrappers if w.kind == "Decorator"}
    out: list[dict[str, Any]] = []
    for edge in edges:
        if edge["to"] is not None:
            handler_type = declared.get(edge["to"], ("", None))[1]
            implemented = ancestors(conn, {handler_type}) if handler_type else set()
            for wrapper in wrappers:
                if (wrapper.kind == "Decorator" and (wrapper.service_id not in implemented or (
                        (own := narrower[wrapper.implementation_id]) and not own & implemented))) or (
                        wrapper.kind == "Behavior" and not edge.get("behaviors")):
                    continue
                for handle in handles.get(wrapper.implementation_id, []):
                    out.append({**{k: v for k, v in edge.items() if k != "inferred"}, "to": handle,
                                "kind": wrapper.kind})
        out.append(edge)
    return out


def _narrower_interfaces(conn: sqlite3.Connection, wrapper: RequestWrapper) -> set[str]:
    """The interfaces of the solution a decorator implements that extend the service it decorates: registered for
    MediatR's IRequestHandler<,>, each module's LoggingCommandHandlerDecorator implements its own module's
    ICommandHandler<,> (and constrains its command to the module's ICommand), so it wraps only that module's handlers
    (modular-monolith-with-ddd: every module's decorator was in every command's trace)."""
    own = ancestors(conn, {wrapper.implementation_id}) - {wrapper.implementation_id, wrapper.service_id}
    # Interfaces only: a decorator deriving from a base decorator class still wraps every handler of its service.
    interfaces = {str(r[0]) for r in in_chunks(conn, "SELECT symbol_id FROM symbols WHERE kind = 'Interface' AND"
                                                     " symbol_id IN ({marks})", {i for i in own if i.startswith("T:")})}
    return {i for i in interfaces if wrapper.service_id in ancestors(conn, {i}) - {i}}


def _declared_handles(conn: sqlite3.Connection, types: set[str]) -> dict[str, list[str]]:
    """The Handle (HandleAsync, Consume) methods each type declares."""
    out: dict[str, list[str]] = {}
    for symbol_id, container in in_chunks(
            conn, "SELECT symbol_id, container_id FROM symbols WHERE kind = 'Method'"
                  f" AND name IN ({', '.join(repr(n) for n in HANDLE_METHODS)}) AND container_id IN ({{marks}})",
            types):
        out.setdefault(str(container), []).append(str(symbol_id))
    return out


def _sole_candidates(conn: sqlite3.Connection, caller_keys: list[int]) -> dict[tuple[str, str], str]:
    """(caller, called name) -> the member every unbound call of that name there has as its one compiler
    candidate (an argument typed from a missing package: realworld's `_jwtTokenGenerator.CreateToken(...)`)."""
    found: dict[tuple[int, str], set[str]] = {}
    for from_key, name, listed in in_chunks(
            conn, "SELECT from_key, target_name, candidates FROM refs WHERE target_key IS NULL AND kind = 'Call'"
                  " AND from_key IN ({marks})", caller_keys):
        ids = candidates_of(listed)
        found.setdefault((from_key, name), set()).add(ids[0] if len(ids) == 1 else "")
    callers = ids_of(conn, {k for k, _ in found})
    sole = {(callers[k], name): next(iter(ids)) for (k, name), ids in found.items() if len(ids) == 1 and "" not in ids}
    declared = {r[0] for r in in_chunks(conn, "SELECT symbol_id FROM symbols WHERE symbol_id IN ({marks})",
                                        set(sole.values()))}
    return {call: member for call, member in sole.items() if member in declared}


# (implementation, DI-registered, how it was inferred: `instantiated` above the call, `constructed` by the solution
# where DI registers another)
Dispatched = list[tuple[str, bool, str | None]]


class _Runs:
    """The implementations a call can run, less those its receiver rules out (query/dispatch.py CallReach, with what
    each caller's object is known to be, `objects`) and those its type arguments rule out (query/typeargs.py:
    `IHandle<TEvent>.Handle` in PublishEvent called with OrderPlaced runs OrderPlaced's handlers)."""

    def __init__(self, conn: sqlite3.Connection, lineage: dispatch.Lineage, callers: list[int],
                 names: dict[int, str], target_keys: dict[str, int | None], type_bounds: typeargs.TypeBounds,
                 implementations: dict[str, list[str]], objects: dispatch.Objects) -> None:
        self._keys = {name: key for key, name in names.items()}
        self._target_keys = target_keys
        known = [k for k in target_keys.values() if k is not None]
        self._reach = dispatch.CallReach(conn, lineage, callers, known, graph.CALL_EDGE, objects)
        self.by_types = typeargs.Downward(conn, callers, [k for t, k in target_keys.items() if k is not None and
                                                          typeargs.matters(t, bool(implementations.get(t)))],
                                          type_bounds, graph.CALL_EDGE)

    def of(self, caller: str, target: str | None, impls: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
        caller_key, target_key = self._keys.get(caller), self._target_keys.get(target or "")
        if not impls or caller_key is None or target_key is None:
            return impls
        kept = self._reach.runnable(caller_key, target_key,
                                    [k for i, _ in impls if (k := self._keys.get(i)) is not None])
        return [(i, r) for i, r in impls
                if ((k := self._keys.get(i)) is None or k in kept) and self.by_types.allows(caller_key, target_key, i)]

    def carried(self, level_edges: list[tuple[dict[str, Any], Dispatched]]) -> tuple[typeargs.TypeBounds,
                                                                                     dispatch.Objects]:
        """What each node of the level is called with, where every call into it says: its method type arguments,
        and what its object is (entered on `this`)."""
        edges = [(self._keys.get(edge["from"]), self._target_keys.get(str(edge["to"])),
                  [k for impl, _, _ in dispatched if (k := self._keys.get(impl)) is not None])
                 for edge, dispatched in level_edges]
        return typeargs.carried_bounds(self.by_types, edges), self._reach.carried(edges)


@dataclass
class _Choice:
    """What one call of an interface or virtual member may run where its processes' DI decides."""

    runs: list[tuple[str, bool]]  # the implementations, and whether DI registers each
    constructed: set[str] = field(default_factory=set)  # run as the solution builds them, DI registering others
    wrapped_by: dict[str, str] = field(default_factory=dict)  # built by a DI factory inside the type it registers
    outside: list[str] = field(default_factory=list)  # registered, and the solution declares none of them


class _Chooser:
    """Which implementations a call of an interface or virtual member runs, in the processes it may run in
    (query/projectrefs.py Processes: CAP's sample apps never run the test project's fake of ICapPublisher). DI decides
    where one of those processes loads a registration for the member's type (a registration in one app narrows only
    the calls that app's process may run; a call of another app's runs every implementation its process loads): the
    implementations registered (a member the registered type inherits too: Ombi's `AddScoped(typeof(IRepository<>),
    typeof(Repository<>))`, whose Add is BaseRepository<T>'s), the type a factory registration builds inside the one it
    registers (Hangfire's sample: `x => new CustomBackgroundJobFactory(new BackgroundJobFactory(...))`, a decorator by
    hand), and those the solution builds itself with `new` outside its test projects, in a project those processes load
    (Hangfire's `new BackgroundJobFactory(...)` handed to BackgroundJobClient: the library runs it whatever an app
    registers)."""

    def __init__(self, conn: sqlite3.Connection, registered: dict[str, list[Registered]],
                 processes: projectrefs.Processes) -> None:
        self._conn, self._registered, self._processes = conn, registered, processes
        self._keys: dict[str, int] = {}
        self._classes: dict[str, str | None] = {}
        self._built: dict[str, frozenset[int]] = {}  # implementing class -> the projects with a `new` of it
        self._cache: dict[tuple[str, Hosts], _Choice] = {}

    def learn(self, impl_names: dict[int, str], impl_info: dict[str, tuple[str, str | None]]) -> None:
        """A level's implementations (their keys and classes)."""
        self._keys.update({name: key for key, name in impl_names.items()})
        self._classes.update({name: impl_info.get(name, ("", None))[1] for name in impl_names.values()})
        if self._processes.active:
            self._processes.members(impl_names)

    def _loaded(self, hosts: Hosts, impl: str) -> bool:
        key = self._keys.get(impl)
        return key is None or self._processes.entered(hosts, key) != frozenset()

    def _learn_built(self, impls: list[str]) -> None:
        classes = sorted({c for i in impls if (c := self._classes.get(i)) and c not in self._built})
        if not classes:
            return
        type_keys = {k: c for c, k in keys_of(self._conn, classes).items()}
        built: dict[str, set[int]] = {}
        for target, project in in_chunks(self._conn, "SELECT DISTINCT target_key, project_id FROM refs WHERE kind ="
                                         " 'Instantiate' AND target_key IN ({marks})", sorted(type_keys)):
            built.setdefault(type_keys[target], set()).add(int(project))
        self._built.update({c: frozenset(built.get(c, ())) for c in classes})

    def _built_in(self, impl: str, hosts: Hosts) -> bool:
        """Whether a project of these processes, not a test project, builds `impl`'s class with `new`."""
        projects = self._built.get(self._classes.get(impl) or "", frozenset()) - self._processes.tests
        return any(hosts is None or any(self._processes.loads(h, p) for h in hosts) for p in projects)

    def of(self, target: str | None, service: str | None, impls: list[str], hosts: Hosts) -> _Choice:
        if target is None:
            return _Choice([])
        if (target, hosts) not in self._cache:
            self._cache[(target, hosts)] = self._choose(service, impls, hosts)
        return self._cache[(target, hosts)]

    def _choose(self, service: str | None, impls: list[str], hosts: Hosts) -> _Choice:
        loaded = [i for i in impls if self._loaded(hosts, i)]
        visible = [r for r in self._registered.get(service or "", [])
                   if hosts is None or any(self._processes.loads(h, r.project_id) for h in hosts)]
        if not visible or not (impls or _is_interface(self._conn, service)):
            return _Choice([(i, False) for i in loaded])
        out = _Choice([])
        lines = ancestors(self._conn, {r.implementation_id for r in visible if r.wrapped_by is None})
        picked = {i for i in loaded if self._classes.get(i) in lines}
        if not picked:
            out.outside = list(dict.fromkeys(r.implementation_id for r in visible if r.wrapped_by is None))
        for inner in (r for r in visible if r.wrapped_by is not None):
            inside = ancestors(self._conn, {inner.implementation_id})
            for impl in loaded:
                if impl not in picked and impl not in out.wrapped_by and self._classes.get(impl) in inside:
                    out.wrapped_by[impl] = str(inner.wrapped_by)
        self._learn_built(loaded)
        chosen = picked | set(out.wrapped_by)
        out.constructed = {i for i in loaded if i not in chosen and self._built_in(i, hosts)}
        out.runs = [(i, i in chosen) for i in loaded if i in chosen or i in out.constructed]
        return out

    def carried(self, hosts: dict[str, Hosts], level_edges: list[tuple[dict[str, Any], Dispatched]],
                sent: list[dict[str, Any]]) -> dict[str, Hosts]:
        """The processes each node of the next level runs in: its callers' (a call stays in the caller's process),
        and for an implementation those of them loading it; a handler a request is sent to, its sender's."""
        found: dict[str, Hosts] = {}
        for edge, dispatched in level_edges:
            caller = hosts.get(str(edge["from"]))
            if edge.get("to"):
                projectrefs.carry(found, str(edge["to"]), caller)
            for impl, _, _ in dispatched:
                key = self._keys.get(impl)
                projectrefs.carry(found, impl, None if key is None else self._processes.entered(caller, key))
        for edge in sent:
            handler, sender = str(edge["to"]), hosts.get(str(edge["from"]))
            key = key_of(self._conn, handler) if self._processes.active else None
            own = None if key is None else self._processes.member_hosts(key)
            # A message handed on through a topic, a queue or a bus may run in another app's process (a CAP subscriber
            # in the app subscribing): the handler's own processes, which hold the sender's when it runs in process (a
            # review finding: the subscriber's implementations were dropped). A mediator's request runs in the
            # sender's process, where that loads the handler.
            through_process = edge.get("kind") == "Mediator" and within(sender, own) != frozenset()
            projectrefs.carry(found, handler, within(sender, own) if through_process else own)
        return found


def _dispatched(conn: sqlite3.Connection, trace: Trace, impls: list[tuple[str, bool]], constructed: set[str],
                impl_info: dict[str, tuple[str, str | None]], made_above: Callable[[], set[str]]) -> Dispatched:
    """Where an interface or virtual call goes: with no DI registration to decide, the implementations of types
    the trace instantiated above the call when there are any (`CheckRule(new EmailRule())` calling
    `rule.IsBroken()`), else all of them; beside the registered ones, those the solution builds itself
    (`constructed`)."""
    if len(impls) < 2 or any(registered for _, registered in impls) or not (types := made_above()):
        return [(i, r, "constructed" if i in constructed and not r else None) for i, r in impls]
    made = ancestors(conn, types)  # a type made above, or one it derives from, implements the member
    chosen: Dispatched = [(i, r, "instantiated") for i, r in impls if impl_info.get(i, ("", None))[1] in made]
    if chosen:
        trace.narrowed += len(impls) - len(chosen)
    return chosen or [(i, r, None) for i, r in impls]


def _leaf_properties(conn: sqlite3.Connection, properties: set[str]) -> set[str]:
    """Properties that call nothing and carry no fact (auto-properties, DTO fields): reading or writing
    one is data flow, not a step of the feature."""
    if not properties:
        return set()
    keys = {k: p for p in properties if (k := key_of(conn, p)) is not None}
    # Calls into the solution only: `[Range(ErrorMessage = ...)]` reads a framework property.
    pairs = in_chunks(conn, f"SELECT DISTINCT r.from_key, r.target_key FROM refs r WHERE r.from_key IN ({{marks}})"
                            f" AND {graph.CALL_EDGE} AND r.target_key IS NOT NULL", keys)
    names = ids_of(conn, {t for _, t in pairs})
    declared = _symbols(conn, set(names.values()))
    active = {f for f, t in pairs if names.get(t) in declared}
    with_facts = {r[0] for r in in_chunks(conn, "SELECT DISTINCT symbol_id FROM facts WHERE symbol_id IN ({marks})",
                                          properties)}
    return {p for k, p in keys.items() if k not in active and p not in with_facts} | \
        {p for p in properties if p not in keys.values() and p not in with_facts}


def _implicit_constructor(declared: dict[str, tuple[str, str | None]], target: str | None) -> bool:
    """`new Order { ... }` of a solution type without a declared constructor: its implicit one."""
    if not target or target in declared or ".#ctor" not in target:
        return False
    return "T:" + target[2:].split(".#ctor", 1)[0] in declared


def _is_interface(conn: sqlite3.Connection, type_id: str | None) -> bool:
    if not type_id:
        return False
    row = conn.execute("SELECT kind FROM symbols WHERE symbol_id = ? LIMIT 1", (type_id,)).fetchone()
    return bool(row and row[0] == "Interface")


def _base_constructor(declared: dict[str, tuple[str, str | None]], caller: str, target: str) -> bool:
    """`: base(...)`: a constructor calling a constructor of another type (its base class)."""
    c, t = declared.get(caller), declared.get(target)
    return bool(c and t and c[0] == "Constructor" and t[0] == "Constructor" and c[1] != t[1])


def _depth_stops(conn: sqlite3.Connection, trace: Trace, frontier: list[str], depth: int) -> None:
    """Nodes of the last level that call on into the solution: the depth limit cut them."""
    keys = [k for k in (key_of(conn, f) for f in frontier) if k is not None]
    if not keys:
        return
    raw = graph._edges_out_of(conn, keys)
    names = ids_of(conn, (k for r in raw for k in r[:2] if k is not None))
    declared = _symbols(conn, {names[r[1]] for r in raw if r[1] is not None})
    calls: dict[str, int] = {}
    for r in raw:
        if r[1] is not None and names[r[1]] in declared:
            calls[names[r[0]]] = calls.get(names[r[0]], 0) + 1
    for node, count in sorted(calls.items()):
        trace.stops.append({"reason": "depth_limit", "at": node, "depth": depth, "solution_calls": count})


def type_arguments(conn: sqlite3.Connection, edges: list[dict[str, Any]],
                   every_caller: bool = False) -> dict[str, list[list[str]]]:
    """Node id -> the type arguments its callers called it with, for calls into a generic type's member
    (`IRepository<CatalogItem>.ListAsync` reaching `EfRepository<T>.ListAsync`): `GenericCall` facts. Only the
    caller a node shows (its first, `from`) unless `every_caller`: SimplCommerce's `IRepository<T>.Query` said
    `from WorkContext.GetCurrentUser` with CartService's `CartItem`; the tables a trace reads take every caller's."""
    wanted: dict[tuple[str, str], list[str]] = {}  # (caller, member called) -> nodes (it and its implementations)
    shown_caller: dict[str, str] = {}
    for edge in edges:
        shown_caller.setdefault(str(edge.get("to")), str(edge["from"]))
    for edge in edges:
        if edge["kind"] in ("Call", "Dispatch") and isinstance(edge.get("to"), str) \
                and (every_caller or shown_caller.get(edge["to"]) == edge["from"]):
            called = edge["via"] if edge["kind"] == "Dispatch" else edge["to"]
            wanted.setdefault((edge["from"], called), []).append(edge["to"])
    if not wanted:
        return {}
    out: dict[str, list[list[str]]] = {}
    rows = in_chunks(conn, "SELECT symbol_id, key, detail FROM facts WHERE kind = 'GenericCall' AND symbol_id IN"
                           " ({marks}) ORDER BY line", {caller for caller, _ in wanted})
    for caller, called, detail in rows:
        try:
            args = [str(a) for a in orjson.loads(detail).get("type_arguments") or []]
        except orjson.JSONDecodeError:
            continue
        if not args or any(a.startswith("`") for a in args):  # a generic method's only, or the caller's own T
            continue
        for node in wanted.get((caller, called), []):
            if args not in out.setdefault(node, []):
                out[node].append(args)
    return out
