"""Which overrides a call can run, read from its receiver (graph_callers, graph_callees, the trace).

A call through `base.` is not virtual: it runs the member it names and no override. A call on `this`
(written, or implied by a plain name: `Describe()`) runs the override of the object's own class, which is the caller's
class or a class deriving from it: an override declared in the caller's class, in one it derives from, or
in one deriving from it, never in a sibling class. Any other receiver may be any implementation. Inside
an interface (a default member calling another) `this` is any implementer: not narrowed.

Going down (graph_callees, the trace: `CallReach`), a member entered on `this` (or `base.`) runs on its caller's object,
so what is known of that object carries down (`Objects`): RestController.Created entered from MovieController.Add on
this runs on a MovieController (or a class deriving from it), and the abstract GetById it calls on this runs the
override visible from MovieController's line (its own, else its nearest base's; those of classes deriving from it
too), never TagController's. A member entered on another receiver whose static type the bridge recorded as a class (a
`ReceiverType` fact at every site: `other.GetWithErrorHandler(id)`, `other` a TagController) runs on that class's
object the same way. A member entered on any other receiver (untyped, typed as the member's own class or an
interface), or from a member whose class is not known, runs on any object of its own class line.

The receiver is the text the bridge stores with each reference (`refs.receiver`: null for a plain name).

graph_callers carries what a `this` call says on up the walk (`narrow`): a member reached only through `this`
calls standing for an override (Policy.Execute calling the abstract Implementation, for CachePolicy's) runs it only on
an object of that override's class line, its `bound`. A caller of that member through another receiver runs it only
when the receiver's static type may be such an object: the type itself, a class deriving from it or one of its bases,
never a sibling class (`timeout.Execute()`, `timeout` a TimeoutPolicy). The bridge records a receiver's static type
where it is not the class declaring the member called (a `ReceiverType` fact at the member's name); without one the
receiver may be any object. A caller through `this` (or `base.`) is on the same object: it must be in a class related
to the bound, and the bound carries on to it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field

from roslynmap.query.keys import ids_of
from roslynmap.query.sql import chunks, in_chunks, marks

NONE, OWN_LINE, ANY = 0, 1, 2
# The reach of one reference (SQL over refs `r`). A plain name is `this` only for a call: a property named alone may
# be in an object initializer (`new D { P = 1 }`), and an implicit call (foreach, await, using) has no receiver text.
# A SignalR client proxy's call (`Clients.All.OnGameStarted(...)`, `_hub.Clients.Group(g).Notify(...)`) goes over the
# wire to the connected clients: like `base.`, it runs no implementation of the client interface in the solution
# (RockPaperOrleans' LeaderboardHub and LeaderboardObserver both implement ILeaderboardGrainObserver, and each was the
# other's caller). Only in a solution that references SignalR's hub types (an app's own `registry.Clients.All` is
# a receiver like any other): an uncorrelated subquery over the unique index of ids, run once per statement.
_USES_SIGNALR = ("EXISTS (SELECT 1 FROM ids WHERE symbol_id >= 'T:Microsoft.AspNetCore.SignalR.'"
                 " AND symbol_id < 'T:Microsoft.AspNetCore.SignalR/')")
_HUB_CLIENT_PROXY = " OR ".join(
    [f"('.' || r.receiver) GLOB '*.Clients.{p}'" for p in ("All", "Caller", "Others")]
    + [f"('.' || r.receiver) GLOB '*.Clients.{m}(*)'" for m in (
        "AllExcept", "Client", "Clients", "Group", "GroupExcept", "Groups", "OthersInGroup", "User", "Users")])
REACH_OF_REF = ("CASE WHEN r.receiver = 'base' THEN 0"
                f" WHEN r.receiver LIKE '%Clients.%' AND ({_HUB_CLIENT_PROXY}) AND {_USES_SIGNALR} THEN 0"
                " WHEN r.receiver = 'this' OR (r.receiver IS NULL AND r.kind = 'Call') THEN 1 ELSE 2 END")
# The widest reach of the calls one caller makes to one target (max over its references).
REACH = f"max({REACH_OF_REF})"
# member key -> the classes its object is one of (or one deriving from one, or a base of one): see the module docstring.
Bounds = dict[int, frozenset[str]]
# Going down: member key -> the classes its object (`this`) is one of or derives from, where that is narrower than the
# member's own class (a base class's member entered on `this` from a derived class's member).
Objects = dict[int, frozenset[str]]


def reach_of(conn: sqlite3.Connection, callers: Iterable[int], targets: Iterable[int],
             edge: str) -> dict[tuple[int, int], int]:
    """(caller key, target key) -> NONE, OWN_LINE or ANY, for the call edges (`edge`, SQL over `r`) between
    them."""
    wanted = set(targets)
    found: dict[tuple[int, int], int] = {}
    if not wanted:
        return found
    # By caller (refs are indexed on from_key), the targets filtered here: a level has few callers.
    for caller_chunk in chunks(sorted(set(callers))):
        for a, b, c in conn.execute(f"SELECT r.from_key, r.target_key, {REACH} FROM refs r WHERE r.from_key IN"
                                    f" ({marks(caller_chunk)}) AND r.target_key IS NOT NULL AND {edge}"
                                    " GROUP BY r.from_key, r.target_key", caller_chunk):
            if b in wanted:
                found[(int(a), int(b))] = int(c)
    return found


class CallReach:
    """Whether each call edge (caller, target) of a level can run an implementation of its target (graph_callees,
    the trace): `base.` runs none, `this` only its own class line's (the override visible from what the caller's object
    is known to be, `objects`, else from the caller's class), and a call on another receiver whose static type the
    bridge recorded at every site (a `ReceiverType` fact: a source class other than the one declaring the member) only
    the implementations of that type's line (`video.GetAspectRatio()`, `video` a Video: Video's override or its
    bases', never Audio's). A site without a recorded type may be any object. The same receivers say what object the
    callee runs on, carried down its own `this` calls (`carried`)."""

    def __init__(self, conn: sqlite3.Connection, lineage: Lineage, callers: Iterable[int], targets: Iterable[int],
                 edge: str, objects: Objects | None = None) -> None:
        self._lineage = lineage
        self._objects = objects or {}
        self._reach = reach_of(conn, callers, targets, edge)
        # (caller, target) with a site on another receiver -> the classes its sites' objects may be (None: any). For
        # `runs`, a `base.` site adds nothing (it runs no override); for `carried`, it is on the caller's own object.
        self._receivers: dict[tuple[int, int], set[str] | None] = {}
        self._carry: dict[tuple[int, int], set[str] | None] = {}
        loose = {caller for (caller, _), reach in self._reach.items() if reach == ANY}
        typed, typed_callers = _receiver_types_of(conn, loose)
        if not typed:
            return
        for chunk in chunks(sorted(typed_callers)):  # a caller without a recorded receiver: any object
            for caller, target, reach, file_id, line, col in conn.execute(
                    f"SELECT r.from_key, r.target_key, {REACH_OF_REF}, r.file_id, r.line, r.col FROM refs r"
                    f" WHERE r.from_key IN ({marks(chunk)}) AND r.target_key IS NOT NULL AND {edge}", chunk):
                key = (int(caller), int(target))
                if self._reach.get(key) != ANY:
                    continue
                # A call on `this` beside typed ones (`Describe() + b.Describe()`): its object is what the caller's is
                # (unknown, or an interface's member: any object).
                here: set[str | None] = {typed.get((file_id, line, col))} if reach == ANY \
                    else set(self.objects_of(int(caller)) or {None})
                _add(self._carry, key, here)
                if reach != NONE:
                    _add(self._receivers, key, here)
        lineage.learn_lines({t for types in self._carry.values() if types for t in types})

    def objects_of(self, caller: int) -> frozenset[str] | None:
        """The classes `caller`'s object is one of or derives from: carried down, else its own class (None: not
        known, or an interface's member)."""
        if caller in self._objects:
            return self._objects[caller]
        own = self._lineage.class_of(caller)
        return frozenset([own]) if own is not None else None

    def _object_of(self, caller: int, target: int) -> frozenset[str] | None:
        """What the object a call caller -> target runs on is (None: any object)."""
        if self._reach.get((caller, target), ANY) != ANY:
            return self.objects_of(caller)
        classes = self._carry.get((caller, target))
        if not classes or any(self._lineage.is_interface(c) for c in classes):
            return None  # an interface's implementers are of any class line: nothing to carry
        return frozenset(classes)

    def runs(self, caller: int, target: int, implementation: int) -> bool:
        reach = self._reach.get((caller, target), ANY)
        if reach == OWN_LINE and caller in self._objects:
            own = self._lineage.class_of(implementation)
            return own is None or self._lineage.meets(own, self._objects[caller])
        if reach != ANY:
            return self._lineage.can_run(caller, implementation, reach)
        receivers = self._receivers.get((caller, target))
        if not receivers:
            return True
        own = self._lineage.class_of(implementation)
        return own is None or self._lineage.meets(own, receivers)

    def runnable(self, caller: int, target: int, implementations: Iterable[int]) -> set[int]:
        """The implementations the calls caller -> target can run: `runs`, and of those a call on `this` reaches
        through the object's own class or its bases, only the nearest (an override hides its bases' ones)."""
        kept = [i for i in implementations if self.runs(caller, target, i)]
        objects = self.objects_of(caller)
        if self._reach.get((caller, target), ANY) != OWN_LINE or len(kept) < 2 or not objects:
            return set(kept)
        return self._lineage.visible(objects, kept)

    def carried(self, edges: Iterable[tuple[int | None, int | None, Iterable[int]]]) -> Objects:
        """The next level's objects: each callee (an edge's target and the implementations it runs) entered on `this`
        or `base.` from callers whose objects are known, or on receivers whose static class the bridge recorded at
        every site (`other.GetWithErrorHandler(id)`, `other` a TagController), runs on those objects (each narrowed to
        the callee's own class where that derives from one); one edge on another receiver (untyped, or typed as an
        interface), or from a caller of unknown object, leaves it free. Only those narrower than the callee's own
        class are kept."""
        found: dict[int, set[str] | None] = {}
        edges = [(c, t, list(i)) for c, t, i in edges]
        self._lineage.learn({n for c, t, impls in edges for n in (c, t, *impls) if n is not None})  # one query
        for caller, target, implementations in edges:
            if caller is None or target is None:
                continue
            objects = self._object_of(caller, target)
            for node in (target, *implementations):
                if node in found and found[node] is None:
                    continue
                narrowed = self._lineage.narrowed(objects, node) if objects else None
                known = found.get(node, set())
                found[node] = None if narrowed is None or known is None else known | narrowed
        return {node: frozenset(classes) for node, classes in found.items()
                if classes and classes != {self._lineage.class_of(node)}}


@dataclass
class Narrowed:
    """What the receivers of one level's calls rule out (graph_callers), and what they say of the callers' objects."""

    blocked: set[tuple[int, int, int]] = field(default_factory=set)  # (caller, target, callee): cannot run callee
    own: set[tuple[int, int]] = field(default_factory=set)  # (caller, base): only `this`/`base.` calls, on its object
    loose: set[tuple[int, int, int]] = field(default_factory=set)  # (caller, target, bound callee): another receiver

    def bounds(self, lineage: Lineage, stands_for: dict[int, list[tuple[int, int | None]]], bounds: Bounds,
               edges: Iterable[tuple[int, int]], callers: set[int]) -> Bounds:
        """The bound of each of `callers` on the next level, from its call edges (caller, target) into this one: a
        caller whose every open edge is on its own object, standing for a bound callee or for an override through its
        base member, runs only on an object of those classes; one edge on any other object frees it."""
        found: dict[int, set[str]] = {}
        free: set[int] = set()
        for caller, target in edges:
            if caller not in callers or caller in free:
                continue
            for callee, via in stands_for.get(target, []):
                if (caller, target, callee) in self.blocked:
                    continue
                classes: frozenset[str] | None = None
                if callee in bounds:
                    classes = None if (caller, target, callee) in self.loose else bounds[callee]
                elif via is not None and (caller, target) in self.own and (own := lineage.class_of(callee)):
                    classes = frozenset([own])
                if classes is None:
                    free.add(caller)
                    found.pop(caller, None)
                    break
                found.setdefault(caller, set()).update(classes)
        return {caller: frozenset(classes) for caller, classes in found.items()}


def narrow(conn: sqlite3.Connection, lineage: Lineage, stands_for: dict[int, list[tuple[int, int | None]]],
           bounds: Bounds, edge: str) -> Narrowed:
    """The calls into a level's targets (`stands_for`: target -> the (callee, via) pairs it stands for, as
    graph_callers builds them) that cannot run the callee: a `base.` or `this` call of a base member whose override
    is not of the caller's class line, and a call standing for a bound callee (`bounds`) on an object that cannot be
    of its classes."""
    out = Narrowed()
    bases = sorted(t for t, pairs in stands_for.items() if any(via is not None for _, via in pairs))
    rows = in_chunks(conn, f"SELECT r.from_key, r.target_key, {REACH} AS reach FROM refs r WHERE r.target_key IN"
                     f" ({{marks}}) AND {edge} AND r.from_key IS NOT NULL GROUP BY r.from_key, r.target_key"
                     " HAVING reach < 2", bases)
    members = {int(r[0]) for r in rows} | {c for t in bases for c, _ in stands_for[t]}
    lineage.learn(members)
    lineage.learn_lines(lineage.classes_of(members))
    for caller, base, reach in rows:
        out.own.add((int(caller), int(base)))
        for callee, via in stands_for[base]:
            if via is not None and not lineage.can_run(caller, callee, reach):
                out.blocked.add((int(caller), int(base), callee))
    _typed_receivers(conn, lineage, stands_for, bounds, edge, out)
    bound_targets = sorted(t for t, pairs in stands_for.items() if any(c in bounds for c, _ in pairs))
    if not bound_targets:
        return out
    refs = in_chunks(conn, f"SELECT r.from_key, r.target_key, {REACH_OF_REF}, r.file_id, r.line, r.col FROM refs r"
                     f" WHERE r.target_key IN ({{marks}}) AND {edge} AND r.from_key IS NOT NULL", bound_targets)
    typed = receiver_types(conn, {int(r[0]) for r in refs if r[2] == ANY})
    members = {int(r[0]) for r in refs} | {c for t in bound_targets for c, _ in stands_for[t]}
    lineage.learn(members)
    lineage.learn_lines({c for classes in bounds.values() for c in classes} | set(typed.values())
                        | lineage.classes_of(members))
    opened: set[tuple[int, int, int]] = set()
    closed: set[tuple[int, int, int]] = set()
    for caller, target, reach, file_id, line, col in refs:
        for callee, via in stands_for[target]:
            classes = bounds.get(callee)
            if classes is None:
                continue
            key = (int(caller), int(target), callee)
            if reach == ANY:
                receiver = typed.get((file_id, line, col))
                runs = receiver is None or lineage.meets(receiver, classes)
                if runs:
                    out.loose.add(key)
            else:  # on the caller's own object
                runs = (via is None or lineage.can_run(caller, callee, reach)) and lineage.on(caller, classes)
            (opened if runs else closed).add(key)
    out.blocked |= closed - opened
    return out


def _typed_receivers(conn: sqlite3.Connection, lineage: Lineage, stands_for: dict[int, list[tuple[int, int | None]]],
                     bounds: Bounds, edge: str, out: Narrowed) -> None:
    """A caller reaching a callee through its base member only on receivers whose recorded static type (a
    `ReceiverType` fact: a class, or an interface deriving from the member's) cannot be of the callee's class line
    cannot run it (modular-monolith-with-ddd's decorators, each calling its own module's ICommandHandler<T, R>, were
    every module's handlers' callers). Only sites with such a fact can rule a caller out, so only those leave SQLite
    (a hub's thousands of other callers never become Python rows), then the callers' site counts say whether an
    untyped site may still run it."""
    targets = sorted(t for t, pairs in stands_for.items()
                     if any(via is not None and c not in bounds for c, via in pairs))
    if not targets:
        return
    typed: dict[tuple[int, int], set[str]] = {}
    counts: dict[tuple[int, int], int] = {}
    for caller, target, receiver in in_chunks(
            conn, "SELECT r.from_key, r.target_key, f.key FROM refs r JOIN facts f ON f.file_id = r.file_id"
                  " AND f.line = r.line AND f.col = r.col AND f.kind = 'ReceiverType' WHERE r.target_key IN"
                  f" ({{marks}}) AND {edge} AND r.from_key IS NOT NULL", targets):
        pair = (int(caller), int(target))
        typed.setdefault(pair, set()).add(str(receiver))
        counts[pair] = counts.get(pair, 0) + 1
    if not typed:
        return
    wanted = set(targets)
    for caller, target, sites in in_chunks(
            conn, f"SELECT r.from_key, r.target_key, count(*) FROM refs r WHERE r.from_key IN ({{marks}}) AND {edge}"
                  " AND r.target_key IS NOT NULL GROUP BY r.from_key, r.target_key", sorted({c for c, _ in typed})):
        pair = (int(caller), int(target))
        if int(target) in wanted and int(sites) != counts.get(pair):
            typed.pop(pair, None)  # a site without a recorded type may be any object
    lineage.learn({c for t in targets for c, _ in stands_for[t]})
    lineage.learn_lines({r for receivers in typed.values() for r in receivers}
                        | lineage.classes_of(c for t in targets for c, _ in stands_for[t]))
    for (caller, target), receivers in typed.items():
        for callee, via in stands_for[target]:
            if via is None or callee in bounds or (own := lineage.class_of(callee)) is None:
                continue
            if not lineage.meets(own, receivers):
                out.blocked.add((caller, target, callee))


def receiver_types(conn: sqlite3.Connection, callers: Iterable[int]) -> dict[tuple[int, int, int], str]:
    """(file id, line, col) of a reference -> the static type of its receiver, where the bridge recorded one
    (`ReceiverType` facts of these callers: a receiver typed as a class other than the member's)."""
    return _receiver_types_of(conn, callers)[0]


def _receiver_types_of(conn: sqlite3.Connection, callers: Iterable[int]) -> tuple[dict[tuple[int, int, int], str],
                                                                                  set[int]]:
    """`receiver_types`, and the callers that have one."""
    names = ids_of(conn, callers)
    rows = in_chunks(conn, "SELECT file_id, line, col, key, symbol_id FROM facts WHERE kind = 'ReceiverType' AND"
                     " symbol_id IN ({marks})", sorted(set(names.values())))
    having = {str(r[4]) for r in rows}
    return ({(int(r[0]), int(r[1]), int(r[2])): str(r[3]) for r in rows},
            {key for key, name in names.items() if name in having})


def _add(found: dict[tuple[int, int], set[str] | None], key: tuple[int, int], here: set[str | None]) -> None:
    """Adds one site's classes to a pair's: a site of unknown object makes the pair any object."""
    known = found.get(key, set())
    if None in here or known is None:
        found[key] = None
    else:
        known.update(t for t in here if t is not None)
        found[key] = known


class Lineage:
    """The classes members are declared in and the base-class chains between them, read once per query."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._container: dict[int, str | None] = {}
        self._interface: dict[str, bool] = {}
        self._bases: dict[str, str | None] = {}
        self._interfaces_of: dict[str, set[str]] = {}
        self._descendants_of: dict[str, set[str]] = {}

    def can_run(self, caller: int, implementation: int, reach: int) -> bool:
        """Whether a call of this reach from `caller` can run `implementation` (an override or implementation
        of the member it names)."""
        if reach == ANY:
            return True
        if reach == NONE:
            return False
        self.learn([caller, implementation])
        own, other = self._container.get(caller), self._container.get(implementation)
        if own is None or other is None or self._interface.get(own, False):
            return True  # not known to be narrower: keep it
        return self.related(own, other)

    def related(self, a: str, b: str) -> bool:
        """Whether an object can be of both types' lines: one class is the other or derives from it; for an
        interface (a receiver typed as one, a `ReceiverType` fact), a class of the other's line implements it."""
        if a == b:
            return True
        a_interface, b_interface = self.is_interface(a), self.is_interface(b)
        if a_interface and b_interface:
            return True  # an object may implement both
        if a_interface or b_interface:
            interface, cls = (a, b) if a_interface else (b, a)
            return self._implements(cls, interface)
        return b in self.line(a) or a in self.line(b)

    def is_interface(self, type_id: str) -> bool:
        if type_id not in self._interface:
            row = self._conn.execute("SELECT kind FROM symbols WHERE symbol_id = ? LIMIT 1", (type_id,)).fetchone()
            self._interface[type_id] = row is not None and row[0] == "Interface"
        return self._interface[type_id]

    def _implements(self, cls: str, interface: str) -> bool:
        """Whether an object of `cls`'s line (it, a base, or a class deriving from it) can be an `interface`."""
        # Its own line first: the walk down to the classes deriving from it only when that says no.
        return any(interface in self._interfaces(t) for t in [cls, *self.line(cls)]) \
            or any(interface in self._interfaces(t) for t in self._descendants(cls))

    def _interfaces(self, type_id: str) -> set[str]:
        """Every interface a type declares it implements, and the interfaces those extend."""
        if type_id not in self._interfaces_of:
            found: set[str] = set()
            frontier = [type_id]
            while frontier:
                more = {str(r[0]) for r in in_chunks(self._conn, "SELECT related_id FROM relations WHERE kind ="
                                                     " 'interface' AND related_id IS NOT NULL AND type_id IN ({marks})",
                                                     frontier)} - found
                found |= more
                frontier = sorted(more)
            self._interfaces_of[type_id] = found
        return self._interfaces_of[type_id]

    def _descendants(self, cls: str) -> set[str]:
        """The classes deriving from `cls`, transitively."""
        if cls not in self._descendants_of:
            found: set[str] = set()
            frontier = [cls]
            while frontier and len(found) < 10_000:
                more = {str(r[0]) for r in in_chunks(self._conn, "SELECT type_id FROM relations WHERE kind = 'base'"
                                                     " AND related_id IN ({marks})", frontier)} - found - {cls}
                found |= more
                frontier = sorted(more)
            self._descendants_of[cls] = found
        return self._descendants_of[cls]

    def visible(self, objects: Iterable[str], implementations: Iterable[int]) -> set[int]:
        """Of implementations an object of one of `objects` (or of a class deriving from one) can run: those declared
        in classes deriving from the object's class, and of those declared in the class itself or its bases only the
        nearest (MovieController's override hides RestController's; ArchiveController, overriding nothing, runs
        MovieController's)."""
        impls = list(implementations)
        out: set[int] = set()
        for cls in objects:
            up = [cls, *self.line(cls)]
            nearest: list[tuple[int, int]] = []
            for impl in impls:
                own = self.class_of(impl)
                if own is None:
                    out.add(impl)
                elif own in up:
                    nearest.append((up.index(own), impl))
                elif self.related(cls, own):
                    out.add(impl)
            if nearest:
                first = min(at for at, _ in nearest)
                out.update(impl for at, impl in nearest if at == first)
        return out

    def narrowed(self, objects: Iterable[str], member: int) -> set[str] | None:
        """What `member`'s object is when it runs on an object of `objects`' lines: each of them, or the member's own
        class where that derives from it; None when the member's class is none of their lines (a static member of
        another class called by its plain name: no object to carry)."""
        own = self.class_of(member)
        if own is None:
            return None
        out: set[str] = set()
        for cls in objects:
            if own == cls or own in self.line(cls):
                out.add(cls)
            elif cls in self.line(own):
                out.add(own)
        return out or None

    def meets(self, type_id: str, classes: Iterable[str]) -> bool:
        """Whether an object of `type_id`'s line can be of one of `classes`' lines."""
        return any(self.related(type_id, c) for c in classes)

    def on(self, caller: int, classes: Iterable[str]) -> bool:
        """Whether `caller`'s own object (`this`) can be of one of `classes`' lines (unknown, or an interface's
        member, where `this` is any implementer: it can)."""
        self.learn([caller])
        own = self._container.get(caller)
        return own is None or self._interface.get(own, False) or self.meets(own, classes)

    def class_of(self, member: int) -> str | None:
        """The class (or struct) declaring `member`, when known; None for an interface's member."""
        self.learn([member])
        own = self._container.get(member)
        return None if own is None or self._interface.get(own, False) else own

    def classes_of(self, members: Iterable[int]) -> set[str]:
        """The types declaring these members (learned before)."""
        return {c for m in members if (c := self._container.get(m)) is not None}

    def learn_lines(self, types: Iterable[str]) -> None:
        """Reads the base-class chains of these types, one query per level of the deepest chain."""
        fresh = {t for t in types if t not in self._bases}
        while fresh:
            found: dict[str, str] = {}
            for type_id, base in in_chunks(self._conn, "SELECT type_id, related_id FROM relations WHERE type_id IN"
                                           " ({marks}) AND kind = 'base' AND related_id IS NOT NULL", sorted(fresh)):
                found.setdefault(type_id, base)
            for type_id in fresh:
                self._bases[type_id] = found.get(type_id)
            fresh = {b for b in found.values() if b not in self._bases}

    def learn(self, keys: Iterable[int]) -> None:
        """Reads the declaring type of each member key not yet known (one query for many)."""
        fresh = sorted({k for k in keys if k not in self._container})
        if not fresh:
            return
        names = ids_of(self._conn, fresh)
        rows = in_chunks(self._conn, "SELECT symbol_id, container_id FROM symbols WHERE symbol_id IN ({marks})",
                         sorted(set(names.values())))
        container = {r[0]: r[1] for r in rows}
        for key in fresh:
            self._container[key] = container.get(names.get(key, ""))
        types = {c for c in container.values() if c and c not in self._interface}
        for symbol_id, kind in in_chunks(self._conn, "SELECT symbol_id, kind FROM symbols WHERE symbol_id IN"
                                         " ({marks})", sorted(types)):
            self._interface[symbol_id] = kind == "Interface"

    def line(self, type_id: str) -> list[str]:
        """The classes `type_id` derives from, nearest first (a cycle in broken code ends the walk)."""
        line: list[str] = []
        current: str | None = type_id
        while current is not None and len(line) < 64:
            if current not in self._bases:
                self.learn_lines([current])
            current = self._bases[current]
            if current is None or current in line or current == type_id:
                break
            line.append(current)
        return line
