"""Which implementations a call through generic code reaches, read from the type arguments at its sites.

An event aggregator's `PublishEvent<TEvent>(TEvent e)` calls `IHandle<TEvent>.Handle(e)` on every handler DI builds
for `IHandle<TEvent>`: SeriesAddedHandler.Handle (an `IHandle<SeriesAdded>`) runs there only when PublishEvent was
called with TEvent = SeriesAdded. So of PublishEvent's callers only the sites whose type argument is SeriesAdded call
that handler (Sonarr: each handler had all 81 publishers of any event as its callers).

The bridge writes a `GenericCall` fact at each call into generic code of the solution, at the member's name:
`type_arguments` of the constructed type the member is called on (`IHandle<TEvent>`), `method_type_arguments` of a
generic method (`PublishEvent(new SeriesAdded())` infers SeriesAdded). An argument that is a type parameter of the
calling code is written ``` ``n ``` (a method's) or `` `n `` (a type's).

graph_callers asks, per level (`narrow`):
- a callee reached through a member of a generic type it implements or overrides (`IHandle`1.Handle(`0)` for
  `SeriesAddedHandler.Handle(SeriesAdded)`) needs the type arguments its own signature fills in (`0 = SeriesAdded):
  a site calling the member on another constructed type (`IHandle<Other>`) cannot run it;
- a callee with a bound (below) needs its method type arguments to be among the bound's types.
A site whose argument is a method type parameter of its caller (PublishEvent's own `TEvent`, ``` ``0 ```) runs the
callee only when the caller is called with that type: the caller's bound, carried to the next level. A site whose
argument the fact does not give (a type's own parameter, an array, no fact) may run the callee, and frees its caller.
A variant interface (`in`/`out` type parameters) is never narrowed: a handler of a base type serves derived ones.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Container, Iterable
from dataclasses import dataclass, field

import orjson

from roslynmap.query.keys import ids_of
from roslynmap.query.sql import chunks, in_chunks, marks

# A method type parameter (``n) -> the type ids it may be.
Bound = dict[str, frozenset[str]]
# member key -> its bound: the member is reached only when called with those method type arguments.
TypeBounds = dict[int, Bound]
# target key -> the (callee, via) pairs it stands for (graph_callers' `targets`).
Targets = dict[int, list[tuple[int, int | None]]]


@dataclass
class _Need:
    """What a site calling `target` must pass for the call to run `callee`."""

    of_type: dict[int, str] = field(default_factory=dict)  # type argument position -> the type id it must be
    of_method: Bound = field(default_factory=dict)  # ``n -> the type ids it may be


@dataclass
class TypeNarrowed:
    blocked: set[tuple[int, int, int]] = field(default_factory=set)  # (caller, target, callee): cannot run callee
    bounds: TypeBounds = field(default_factory=dict)  # callers reached only with these method type arguments


def parameters(method_id: str) -> list[str]:
    """`M:A.Handle(X.Y,System.Collections.Generic.List{A.B})` -> ['X.Y', 'System.Collections.Generic.List{A.B}']."""
    inside = method_id.partition("(")[2].rpartition(")")[0]
    out: list[str] = []
    depth = start = 0
    for i, c in enumerate(inside):
        depth += (c in "{[(") - (c in "}])")
        if c == "," and depth == 0:
            out.append(inside[start:i])
            start = i + 1
    if inside:
        out.append(inside[start:])
    return out


def definition(parameter: str) -> str | None:
    """The type id of a parameter's generic definition, as GenericCall facts record a constructed argument:
    `N.Updated{N.IIndexer}` -> 'T:N.Updated`1', `N.Outer{`0}.Inner{X,Y}` -> 'T:N.Outer`1.Inner`2'; a plain named
    type as itself; None for a type parameter, an array, a pointer or a by-ref."""
    if not parameter or parameter.startswith("`") or parameter.endswith(("]", "@", "*")):
        return None
    out: list[str] = []
    depth = arity = 0
    for c in parameter:
        if c == "{":
            depth += 1
            arity = 1 if depth == 1 else arity
        elif c == "}":
            depth -= 1
            if depth == 0:
                out.append(f"`{arity}")
        elif depth == 0:
            out.append(c)
        elif depth == 1 and c == ",":
            arity += 1
    name = "".join(out)
    return None if depth or any(c in name for c in "[(@*") else "T:" + name


def filled_in(via_id: str, callee_id: str) -> dict[int, str]:
    """The type arguments an implementation's signature fills in for the generic member it implements:
    `M:N.IHandle`1.Handle(`0)` implemented by `M:N.H.Handle(N.SeriesAdded)` -> {0: 'T:N.SeriesAdded'}. A constructed
    parameter fills in its generic definition, as the sites' facts record it: `H.Handle(N.Updated{N.IIndexer})` needs
    'T:N.Updated`1', so a publisher of `Updated<X>` for any X may run it and one of `Deleted<X>` may not (Radarr's
    `IHandle<ProviderUpdatedEvent<IIndexer>>` had all 81 publishers of any event as callers). An array or by-ref
    parameter fills nothing in; none when two positions disagree."""
    found: dict[int, str] = {}
    # A type nested in a generic type numbers its parameters across the enclosing types (`Bus`1.IHandler`1`: `0 is
    # Bus's), while the site's fact gives the innermost type's arguments: not comparable, so not narrowed.
    if sum(1 for part in via_id[2:].split("(", 1)[0].split(".")[:-1] if "`" in part) > 1:
        return {}
    theirs, ours = parameters(via_id), parameters(callee_id)
    if len(theirs) != len(ours):
        return {}
    for param, own in zip(theirs, ours, strict=True):
        if not (param.startswith("`") and param[1:].isdigit()):
            continue
        type_id = definition(own)
        if type_id is None:
            continue
        position = int(param[1:])
        if found.setdefault(position, type_id) != type_id:
            return {}
    return found


def _variant(conn: sqlite3.Connection, member_ids: Iterable[str]) -> set[str]:
    """The members of `member_ids` declared in a type with variant type parameters (`IHandle<in T>`)."""
    containers = {m: m[2:].split("(", 1)[0].rpartition(".")[0] for m in member_ids}
    rows = in_chunks(conn, "SELECT symbol_id, signature FROM symbols WHERE symbol_id IN ({marks})",
                     {"T:" + c for c in containers.values()})
    variant = {str(r[0])[2:] for r in rows if r[1] and ("<in " in r[1] or "<out " in r[1]
                                                        or ", in " in r[1] or ", out " in r[1])}
    return {m for m, c in containers.items() if c in variant}


def _needs(conn: sqlite3.Connection, targets: Targets, bounds: TypeBounds,
           names: dict[int, str]) -> dict[tuple[int, int], _Need]:
    vias = {names[via] for pairs in targets.values() for _, via in pairs if via is not None and via in names}
    variant = _variant(conn, vias)
    needs: dict[tuple[int, int], _Need] = {}
    for target, pairs in targets.items():
        for callee, via in pairs:
            need = _Need(of_method=dict(bounds.get(callee, {})))
            if via is not None and via in names and callee in names and names[via] not in variant:
                need.of_type = filled_in(names[via], names[callee])
            if need.of_type or need.of_method:
                needs[(target, callee)] = need
    return needs


def _arguments(detail: str | None) -> tuple[list[str] | None, list[str] | None]:
    """(type_arguments, method_type_arguments) of a GenericCall fact's detail; None where it has none."""
    try:
        parsed = orjson.loads(detail or "{}")
    except orjson.JSONDecodeError:
        return None, None
    if not isinstance(parsed, dict):
        return None, None

    def strings(value: object) -> list[str] | None:
        return [str(v) for v in value] if isinstance(value, list) else None
    return strings(parsed.get("type_arguments")), strings(parsed.get("method_type_arguments"))


def first_method_type_argument(detail: str | None) -> str | None:
    """A GenericCall fact's first method type argument (a type id, or ``n: a type parameter of the caller)."""
    method_args = _arguments(detail)[1]
    return method_args[0] if method_args else None


def outside_window(window: tuple[str, str, int, int] | None, caller: str, file: str | None, line: int) -> bool:
    """Whether a trace confined to `window` (caller, file, first line, last line: a route's lambda) leaves a site of
    `caller` at `file`:`line` out: one of that caller's sites on other lines."""
    return window is not None and caller == window[0] and not (file == window[1] and window[2] <= line <= window[3])


@dataclass(frozen=True)
class GenericCallSite:
    """One call of a generic method: who calls it, the method, its first method type argument, where."""

    caller: str
    method: str
    type_argument: str | None  # a type id, or ``n: a type parameter of the caller
    file: str | None
    line: int

    def outside(self, window: tuple[str, str, int, int] | None) -> bool:
        return outside_window(window, self.caller, self.file, self.line)

    def types(self, bounds: dict[str, Bound]) -> list[str]:
        """The types the call's type argument stands for: itself when a type, the types the trace knows its caller
        was called with when a type parameter of the caller (`bounds`), else none."""
        argument = self.type_argument
        if argument and argument.startswith("``"):
            return sorted(bounds.get(self.caller, {}).get(argument, ()))
        return [argument] if argument and argument.startswith("T:") else []


def generic_calls(conn: sqlite3.Connection, callers: Iterable[str], methods: Container[str]) -> list[GenericCallSite]:
    """The calls of `methods` these members make (their GenericCall facts), ordered by caller, line and method (a
    queue's pushes, a bus's publications)."""
    rows = in_chunks(conn, "SELECT fa.symbol_id, fa.key, fa.detail, f.path, fa.line FROM facts fa LEFT JOIN files f"
                           " ON f.id = fa.file_id WHERE fa.kind = 'GenericCall' AND fa.symbol_id IN ({marks})",
                     sorted(set(callers)))
    return sorted((GenericCallSite(str(c), str(m), first_method_type_argument(d), p, int(n))
                   for c, m, d, p, n in rows if str(m) in methods), key=lambda s: (s.caller, s.line, s.method))


def typed_calls_of(conn: sqlite3.Connection, methods: Iterable[str]) -> list[tuple[str, str, str]]:
    """(caller, method, type) of every call of `methods` whose first method type argument is a type (not a type
    parameter of its caller): who queues or publishes what."""
    rows = in_chunks(conn, "SELECT symbol_id, key, detail FROM facts WHERE kind = 'GenericCall' AND symbol_id IS NOT"
                           " NULL AND key IN ({marks})", sorted(set(methods)))
    return [(str(caller), str(method), argument) for caller, method, detail in rows
            if (argument := first_method_type_argument(detail)) and argument.startswith("T:")]


def _site_facts(conn: sqlite3.Connection, callers: Iterable[int],
                names: dict[int, str]) -> dict[tuple[int, int, int], tuple[list[str] | None, list[str] | None]]:
    """(file id, line, col) -> (type_arguments, method_type_arguments) of the GenericCall facts of `callers`."""
    wanted = sorted({names[c] for c in callers if c in names})
    return {(int(file_id), int(line), int(col)): _arguments(detail) for file_id, line, col, detail in in_chunks(
        conn, "SELECT file_id, line, col, detail FROM facts WHERE kind = 'GenericCall' AND symbol_id IN ({marks})",
        wanted)}


def _check(need: _Need, type_args: list[str] | None, method_args: list[str] | None) -> Bound | None:
    """None: the site cannot run the callee; else the bound it puts on its caller (empty: none, it may run)."""
    bound: dict[str, frozenset[str]] = {}

    def require(argument: str | None, allowed: frozenset[str]) -> bool:
        if argument is None or (argument.startswith("`") and not argument.startswith("``")):
            return True  # not known here: may run
        if argument.startswith("``"):
            bound[argument] = bound.get(argument, allowed) & allowed
            return bool(bound[argument])
        return argument in allowed

    for position, type_id in need.of_type.items():
        argument = type_args[position] if type_args is not None and position < len(type_args) else None
        if not require(argument, frozenset([type_id])):
            return None
    for parameter, allowed in need.of_method.items():
        position = int(parameter[2:])
        argument = method_args[position] if method_args is not None and position < len(method_args) else None
        if not require(argument, allowed):
            return None
    return bound


def narrow(conn: sqlite3.Connection, targets: Targets, bounds: TypeBounds, edge: str) -> TypeNarrowed:
    """The calls into a level's targets that cannot run their callee for its type arguments, and the bound each
    caller whose every call into the level depends on its own method type arguments carries to the next level."""
    out = TypeNarrowed()
    names = ids_of(conn, {k for t, pairs in targets.items() for k in (t, *(c for c, _ in pairs),
                                                                        *(v for _, v in pairs if v is not None))})
    needs = _needs(conn, targets, bounds, names)
    if not needs:
        return out
    wanted = sorted({target for target, _ in needs})
    # Only a site with a GenericCall fact can rule its caller out or bound it: those leave SQLite (a generic hub's
    # thousands of other callers never become Python rows); a caller's other sites may run anything.
    sites: list[tuple[int, int, list[str] | None, list[str] | None]] = []
    counts: dict[tuple[int, int], int] = {}
    for caller, target, detail in in_chunks(
            conn, "SELECT r.from_key, r.target_key, f.detail FROM refs r JOIN facts f ON f.file_id = r.file_id"
                  " AND f.line = r.line AND f.col = r.col AND f.kind = 'GenericCall' WHERE r.target_key IN"
                  f" ({{marks}}) AND {edge} AND r.from_key IS NOT NULL", wanted):
        type_args, method_args = _arguments(detail)
        sites.append((int(caller), int(target), type_args, method_args))
        counts[(int(caller), int(target))] = counts.get((int(caller), int(target)), 0) + 1
    wanted_set = set(wanted)
    for caller, target, total in in_chunks(
            conn, f"SELECT r.from_key, r.target_key, count(*) FROM refs r WHERE r.from_key IN ({{marks}}) AND {edge}"
                  " AND r.target_key IS NOT NULL GROUP BY r.from_key, r.target_key", sorted({s[0] for s in sites})):
        if int(target) in wanted_set and int(total) > counts.get((int(caller), int(target)), 0):
            sites.append((int(caller), int(target), None, None))  # a site without a fact: unknown, may run
    runs: set[tuple[int, int, int]] = set()
    seen: set[tuple[int, int, int]] = set()
    caller_bounds: dict[int, list[Bound]] = {}
    free: set[int] = set()
    for caller, target, type_args, method_args in sites:
        for callee, _via in targets[target]:
            key = (caller, target, callee)
            seen.add(key)
            need = needs.get((target, callee))
            if need is None:
                runs.add(key)
                free.add(caller)
                continue
            bound = _check(need, type_args, method_args)
            if bound is None:
                continue
            runs.add(key)
            if bound:
                caller_bounds.setdefault(caller, []).append(bound)
            else:
                free.add(caller)
    out.blocked = seen - runs
    # A caller also calling into the level where no type argument matters runs on whatever it is called with.
    unconditional = {t for t, pairs in targets.items() if any((t, c) not in needs for c, _ in pairs)}
    if unconditional and caller_bounds:
        for caller, target in in_chunks(conn, f"SELECT DISTINCT r.from_key, r.target_key FROM refs r WHERE"
                                        f" r.from_key IN ({{marks}}) AND {edge}", sorted(caller_bounds)):
            if int(target) in unconditional:
                free.add(int(caller))
    for caller, found in caller_bounds.items():
        # Sites asking for different parameters (``0 at one, ``1 at another) make no single bound: none.
        if caller in free or len({frozenset(b) for b in found}) > 1:
            continue
        merged: dict[str, frozenset[str]] = {}
        for b in found:
            for parameter, allowed in b.items():
                merged[parameter] = merged.get(parameter, frozenset()) | allowed
        out.bounds[caller] = merged
    return out


# A type argument at a site as the walk knows it: the types it may be, or None (not known here).
Known = frozenset[str] | None


def matters(target_id: str, dispatches: bool) -> bool:
    """Whether a call target's type arguments can narrow anything: it dispatches to implementations, or it is a
    generic method whose type arguments its callees may carry on (graph_callees and the trace ask for only these)."""
    return dispatches or "``" in target_id


class Downward:
    """graph_callees and the trace: which implementations each call of a level can run for the type arguments at its
    sites (`handler.Handle(e)` on an `IHandle<StockLow>` runs Restocker's, not Mailer's), and the bound each callee
    carries on (PublishEvent called with OrderPlaced: its `IHandle<TEvent>.Handle` runs OrderPlaced's handlers). A
    site's argument that is one of its caller's method type parameters is read from the caller's bound."""

    def __init__(self, conn: sqlite3.Connection, callers: Iterable[int], targets: Iterable[int], bounds: TypeBounds,
                 edge: str) -> None:
        self._sites: dict[tuple[int, int], list[tuple[list[Known] | None, list[Known] | None]]] = {}
        wanted, from_keys = sorted(set(targets)), sorted(set(callers))
        self._names = ids_of(conn, [*wanted, *from_keys])
        if not wanted or not from_keys:
            self._variant: set[str] = set()
            return
        self._variant = _variant(conn, [self._names[t] for t in wanted if t in self._names])
        rows: list[tuple[int, int, int, int, int]] = []
        for chunk in chunks(from_keys):
            rows.extend((int(a), int(b), int(c), int(d), int(e)) for a, b, c, d, e in conn.execute(
                f"SELECT r.from_key, r.target_key, r.file_id, r.line, r.col FROM refs r WHERE r.from_key IN"
                f" ({marks(chunk)}) AND r.target_key IS NOT NULL AND {edge}", chunk))
        wanted_set = set(wanted)
        rows = [r for r in rows if r[1] in wanted_set]
        facts = _site_facts(conn, from_keys, self._names)
        for caller, target, file_id, line, col in rows:
            type_args, method_args = facts.get((file_id, line, col), (None, None))
            bound = bounds.get(caller, {})
            self._sites.setdefault((caller, target), []).append(
                (_known(type_args, bound), _known(method_args, bound)))

    def allows(self, caller: int, target: int, implementation_id: str) -> bool:
        """Whether some site of caller -> target can run the implementation (unknown sites can)."""
        target_id = self._names.get(target)
        sites = self._sites.get((caller, target))
        if target_id is None or not sites or target_id in self._variant:
            return True
        needed = filled_in(target_id, implementation_id)
        if not needed:
            return True
        for type_args, _ in sites:
            if type_args is None or all(
                    position >= len(type_args) or type_args[position] is None
                    or type_id in (type_args[position] or ()) for position, type_id in needed.items()):
                return True
        return False

    def bound_of(self, caller: int, target: int) -> Bound | None:
        """The method type arguments the sites of caller -> target call with (None: some site is not known)."""
        sites = self._sites.get((caller, target))
        if not sites:
            return None
        merged: dict[str, frozenset[str]] = {}
        for _, method_args in sites:
            if method_args is None or any(a is None for a in method_args):
                return None
            for position, allowed in enumerate(method_args):
                parameter = f"``{position}"
                merged[parameter] = merged.get(parameter, frozenset()) | (allowed or frozenset())
        return merged


def _known(arguments: list[str] | None, bound: Bound) -> list[Known] | None:
    if arguments is None:
        return None
    return [frozenset([a]) if a.startswith("T:") else bound.get(a) if a.startswith("``") else None
            for a in arguments]


def carry(found: dict[int, Bound | None], node: int, bound: Bound | None) -> None:
    """Merges the bound one more edge gives `node` into `found` (None: some edge gives none, so it has none)."""
    if node in found and found[node] is None:
        return
    if bound is None or (node in found and set(found[node] or {}) != set(bound)):
        found[node] = None
        return
    current = found.get(node) or {}
    found[node] = {p: current.get(p, frozenset()) | allowed for p, allowed in bound.items()}


def carried_bounds(by_types: Downward, edges: Iterable[tuple[int | None, int | None, Iterable[int]]]) -> TypeBounds:
    """The next level's bounds: the method type arguments each callee of a level (an edge's target and the
    implementations it runs) is called with, where every call into it says (graph_callees and the trace)."""
    found: dict[int, Bound | None] = {}
    for caller, target, implementations in edges:
        if caller is None or target is None:
            continue
        bound = by_types.bound_of(caller, target)
        for node in (target, *implementations):
            carry(found, node, bound)
    return {node: bound for node, bound in found.items() if bound}
