"""Who sends a handler's request through a mediator: the trace's Mediator edge walked back (impact_analyze,
tests_find, graph_callers' warning and the tables' endpoints reach a handler's endpoints and tests through it).

A request is sent:
- as its own type (`mediator.Send(new CreateOrderCommand(...))`: a MediatorRequest fact keyed by the request);
- wrapped as a type argument of a generic request whose handler sends its type parameter on (eShop's
  `IdentifiedCommand<ShipOrderCommand, bool>`): the sender is the member that wrapped it;
- through forwarders: a member sending a request typed as an interface, a base or a type parameter the request is
  (a test fixture's `SendAsync<T>(IRequest<T> r) => mediator.Send(r)`, a `CommandsExecutor.Execute`), and the
  members handing it on to one, typed as such a base in their parameters, directly or through the interface member
  they implement (kgrzybek/modular-monolith-with-ddd's controller calls `IMeetingsModule.ExecuteCommandAsync`, whose
  `MeetingsModule` hands the command to `CommandsExecutor.Execute`, which sends it). The sender is the member that
  makes the request (`new Create.Command(...)`) and calls a forwarder, or takes the request itself as a parameter
  and calls one (a page's model-bound `OnPostAsync(Edit.Command c) => SendAsync(c)`);
- raised: an event only forwarders send, which no member both makes and hands to one (a domain event an aggregate
  records in its constructor, which a dispatcher publishes later typed as IDomainEvent): the members that make it.
  Only events (a base named like an event or a notification): a command no one hands on is not sent by its makers.

A handler subscribed to an event bus as a delegate (`bus.Subscribe<OrderPlaced>(OnOrderPlaced)`,
query/subscriptions.py) is run by the members that publish its event, named the same way (`through: subscription`).

A method subscribed to a topic by an attribute (`[CapSubscribe("orders.created")]`, query/topics.py) is run by the
members that publish to that topic by name (`through: topic`).

A command queued (`queue.Push(new RefreshCommand())`, query/queues.py) is sent by the members that queue it: a handler
of `IExecute<RefreshCommand>` names them in graph_callers' warning, and impact_analyze and tests_find walk them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

import orjson

from roslynmap.query import graph
from roslynmap.query.keys import ids_of, keys_of
from roslynmap.query.queues import queue_senders
from roslynmap.query.sql import in_chunks, memo
from roslynmap.query.subscriptions import publishers
from roslynmap.query.topics import topic_publishers
from roslynmap.query.trace import ancestors, handle_methods_of_handlers, handled_message, handlers_of, saga_events
from roslynmap.query.typeargs import parameters

FORWARDING_HOPS = 3  # members handing a request on to a forwarder, up from the one that sends it


def mediator_senders(conn: sqlite3.Connection, members: Iterable[str]) -> dict[str, list[str]]:
    """Handler method -> the members that send its request (module docstring)."""
    # A saga state machine's `Event<OrderSubmitted>` property takes the message a handler's parameter would.
    sagas = {prop: message for message, props in saga_events(conn).items() for prop in props}
    handles = (set(handle_methods_of_handlers(conn)) | set(sagas)) & set(members)
    if not handles:
        return {}
    requests = {h: sagas.get(h) or "T:" + handled_message(h) for h in handles}
    takes = handlers_of(conn, set(requests.values()))  # the forward rule: the handler is the request's
    # Once per request and connection: impact_analyze and the tables' endpoints ask at every level of every walk.
    known: dict[str, list[str]] = memo(conn, "mediator_senders_by_request", dict)
    fresh = sorted(set(requests.values()) - set(known))
    if fresh:
        senders: dict[str, set[str]] = {r: set() for r in fresh}
        direct = "SELECT DISTINCT key, symbol_id FROM facts WHERE kind = 'MediatorRequest' AND symbol_id IS NOT NULL"
        for request, sender in in_chunks(conn, direct + " AND key IN ({marks})", fresh):
            senders[str(request)].add(str(sender))
        for request, sender in _wrapping_senders(conn, set(fresh)):
            senders[request].add(sender)
        sent = {r for r, found in senders.items() if found}
        for request, sender in _forwarding_senders(conn, set(fresh), sent):
            senders[request].add(sender)
        known.update({r: sorted(found) for r, found in senders.items()})
    return {h: known[r] for h, r in requests.items() if h in takes.get(r, []) and known.get(r)}


def senders_warning(conn: sqlite3.Connection, member: str) -> str | None:
    """graph_callers' and a card's word for a mediator handler: no call edge comes from whoever sends its request
    (realworld's Handle: "0 callers"), so the senders are named; the same for a queued command's handler."""
    senders = mediator_senders(conn, [member]).get(member)
    if senders:
        # MassTransit's consumers and saga events too: their message is published or sent on a bus.
        return (f"Its request is sent through a mediator or a message bus by {_members(senders)}: not call edges;"
                " impact_analyze and tests_find walk them (`through: mediator`).")
    queued = queue_senders(conn, [member]).get(member)
    if queued:
        return (f"Its command is pushed on a queue by {_members(queued)}, and run later by the handler built for its"
                " type: not call edges; impact_analyze and tests_find walk them (`through: queue`).")
    published = publishers(conn, [member]).get(member)
    if published:
        return (f"It is subscribed to an event bus as a delegate and runs when its event is published, by"
                f" {_members(published)}: not call edges; impact_analyze and tests_find walk them (`through:"
                " subscription`).")
    by_topic = topic_publishers(conn, [member]).get(member)
    if by_topic:
        return (f"It is subscribed to a topic by an attribute and runs when a message is published to it, by"
                f" {_members(by_topic)}: not call edges; impact_analyze and tests_find walk them (`through: topic`).")
    return None


def _members(found: list[str]) -> str:
    shown = ", ".join(found[:3]) + (", ..." if len(found) > 3 else "")
    return f"{len(found)} member{'s' if len(found) != 1 else ''} ({shown})"


def _parameter_types(member_id: str) -> set[str]:
    """The types a member's parameters are, as relations name them: `ICommand{``0}` -> `T:N.ICommand`1`; a type
    without a namespace (unbound: `IRequest{``0}`) also as `?IRequest`."""
    out: set[str] = set()
    for param in parameters(member_id):
        name, _, args = param.partition("{")
        if not name or any(c in name for c in "`[@*("):
            continue
        arity = 0
        if args:
            depth, arity = 0, 1
            for c in args[:-1]:
                depth += (c == "{") - (c == "}")
                arity += c == "," and depth == 0
        out.add(f"T:{name}`{arity}" if arity else f"T:{name}")
        out.add("?" + name.rsplit(".", 1)[-1])
    return out


def _forwarders(conn: sqlite3.Connection, above: dict[str, set[str]]) -> dict[str, set[str]]:
    """Member -> the requests it may send typed as one of their bases (MediatorRequest facts keyed by a base)."""
    sends = memo(conn, "mediator_sends", lambda: [(str(k), str(m)) for k, m in conn.execute(
        "SELECT DISTINCT key, symbol_id FROM facts WHERE kind = 'MediatorRequest' AND symbol_id IS NOT NULL")])
    forwarders: dict[str, set[str]] = {}
    for key, member in sends:
        fits = {r for r, bases in above.items() if key in bases}
        if fits:
            forwarders.setdefault(member, set()).update(fits)
    return forwarders


def _callers_of(conn: sqlite3.Connection, forwarders: dict[str, set[str]]) -> dict[int, set[str]]:
    """Caller key -> the forwarders it calls: bound, through an interface or base member a forwarder implements,
    or unbound by a forwarder's name where a package is missing (overloads share it: `SendAsync<T>(IRequest<T>)`
    and `SendAsync(IRequest)`)."""
    keys = keys_of(conn, forwarders)
    by_key: dict[int, set[str]] = {k: {m} for m, k in keys.items()}
    for member_key, bases in graph.dispatch_closure(conn, list(by_key), upward=True).items():
        for base in bases:
            by_key.setdefault(base, set()).update(by_key[member_key])
    names: dict[str, set[str]] = {}
    for member in forwarders:
        names.setdefault(member.split("(", 1)[0].rsplit(".", 1)[-1].split("``", 1)[0], set()).add(member)
    calling: dict[int, set[str]] = {}
    for from_key, target_key in in_chunks(conn, "SELECT DISTINCT from_key, target_key FROM refs WHERE kind = 'Call'"
                                                " AND from_key IS NOT NULL AND target_key IN ({marks})", list(by_key)):
        calling.setdefault(int(from_key), set()).update(by_key[target_key])
    for from_key, name in in_chunks(conn, "SELECT DISTINCT from_key, target_name FROM refs WHERE kind = 'Call'"
                                          " AND target_key IS NULL AND from_key IS NOT NULL AND target_name IN"
                                          " ({marks})", list(names)):
        calling.setdefault(int(from_key), set()).update(names[str(name)])
    return calling


def _makers(conn: sqlite3.Connection, requests: set[str], among: Iterable[int] | None) -> dict[int, set[str]]:
    """Member key -> the requests it makes (`new Create.Command(...)`: its constructor, or the type for an
    initializer); among the members `among` when given."""
    wanted = {r: r for r in requests} | {f"M:{r[2:]}.#ctor": r for r in requests}
    if among is None:
        rows = in_chunks(conn, "SELECT DISTINCT r.from_key, i.symbol_id FROM refs r JOIN ids i ON i.key = r.target_key"
                               " WHERE r.kind = 'Instantiate' AND r.from_key IS NOT NULL AND i.symbol_id IN ({marks})",
                         [*requests, *(i for i in _constructors(conn, requests))])
    else:
        rows = in_chunks(conn, "SELECT DISTINCT r.from_key, i.symbol_id FROM refs r JOIN ids i ON i.key = r.target_key"
                               " WHERE r.kind = 'Instantiate' AND r.from_key IN ({marks})", list(among))
    made: dict[int, set[str]] = {}
    for from_key, target in rows:
        request = wanted.get(str(target)) or wanted.get(str(target).split("(", 1)[0])
        if request is not None:
            made.setdefault(int(from_key), set()).add(request)
    return made


def _constructors(conn: sqlite3.Connection, types: set[str]) -> list[str]:
    return [str(r[0]) for r in in_chunks(conn, "SELECT symbol_id FROM symbols WHERE kind = 'Constructor' AND"
                                               " container_id IN ({marks})", types)]


def _is_event(bases: set[str]) -> bool:
    """A request whose bases name an event or a notification (INotification, IDomainEvent, IIntegrationEvent...)."""
    return any(("Event" in name or "Notification" in name) for b in bases
               for name in [b.split("(", 1)[0].rsplit(".", 1)[-1].lstrip("?")])


def _forwarding_senders(conn: sqlite3.Connection, requests: set[str], sent: set[str]) -> list[tuple[str, str]]:
    """(request, sender) for the requests handed to forwarders, and those raised (`sent`: the requests some member
    sends as their own type or wrapped: never raised) (module docstring)."""
    above = {r: ancestors(conn, {r}) - {r} for r in requests}  # what each request is: its bases and interfaces
    forwarders = _forwarders(conn, above)
    if not forwarders:
        return []
    calling: dict[int, set[str]] = {}
    taking: set[tuple[str, str]] = set()
    fresh = dict(forwarders)
    for _ in range(FORWARDING_HOPS):
        found = _callers_of(conn, fresh)
        for key, called in found.items():
            calling.setdefault(key, set()).update(called)
        # A caller taking a request typed as one of its bases hands it on: a forwarder too; one taking the request
        # itself (a page's `OnPostAsync(Edit.Command c) => SendAsync(c)`, model-bound) sends it.
        names = ids_of(conn, found)
        fresh = {}
        for key, called in found.items():
            member = names.get(key)
            if member is None or member in forwarders:
                continue
            taken = _parameter_types(member)
            fits = {r for f in called for r in forwarders[f] if taken & above[r]}
            if fits:
                fresh[member] = fits
            taking.update((r, member) for f in called for r in forwarders[f] if r in taken)
        if not fresh:
            break
        forwarders.update(fresh)
    made = _makers(conn, requests, calling)
    members = ids_of(conn, made)
    out = [(request, members[key]) for key, requests_made in made.items() if key in members
           for request in requests_made if any(request in forwarders.get(f, ()) for f in calling.get(key, ()))]
    out.extend(sorted(taking))
    # Raised, not handed on: every member that makes an event only forwarders send (a domain event an aggregate
    # records, published later typed as IDomainEvent). Only events: a command or query no one hands to a forwarder
    # is not sent by whatever makes it (a validator's test).
    raised = {r for f in forwarders.values() for r in f if _is_event(above[r])} - {r for r, _ in out} - sent
    if raised:
        makers = _makers(conn, raised, None)
        members = ids_of(conn, makers)
        out.extend((request, members[key]) for key, made_here in makers.items() if key in members
                   for request in made_here)
    return out


def _wrapping_senders(conn: sqlite3.Connection, requests: set[str]) -> list[tuple[str, str]]:
    """(request, sender) for each send of a generic request carrying `request` as a type argument whose handler
    sends a type parameter on."""
    wrapping = memo(conn, "mediator_wrapping_sends", lambda: [
        (str(key), str(sender), orjson.loads(detail)) for key, sender, detail in conn.execute(
            "SELECT key, symbol_id, detail FROM facts WHERE kind = 'MediatorRequest' AND symbol_id IS NOT NULL"
            " AND detail LIKE '%\"type_args\"%'")])
    wrapping = [(k, s, d) for k, s, d in wrapping if requests & set(d.get("type_args", ()))]
    if not wrapping:
        return []
    handlers = handlers_of(conn, {k for k, _, _ in wrapping})
    forwarding = {str(r[0]) for r in in_chunks(
        conn, "SELECT symbol_id FROM facts WHERE kind = 'MediatorRequest' AND detail LIKE '%\"type_parameter\"%'"
              " AND symbol_id IN ({marks})", sorted({h for hs in handlers.values() for h in hs}))}
    return [(arg, sender) for key, sender, detail in wrapping
            if forwarding & set(handlers.get(key, ())) for arg in detail["type_args"] if arg in requests]
