"""Which overrides a call can run, read from its receiver (graph_callers, graph_callees, the trace).

A call through `base.` is not virtual: it runs the member it names and no override. A call on `this`
(written, or implied by a plain name: `Describe()`) runs the override of the object's own class, which is the caller's
class or a class deriving from it: an override declared in the caller's class, in one it derives from, or
in one deriving from it, never in a sibling class. Any other receiver may be any implementation. Inside
an interface (a default member calling another) `this` is any implementer: not narrowed.

The receiver is the text the bridge stores with each reference (`refs.receiver`: null for a plain name).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from roslynmap.query.keys import ids_of
from roslynmap.query.sql import chunks, in_chunks, marks

NONE, OWN_LINE, ANY = 0, 1, 2
# The widest reach of the calls one caller makes to one target (max over its references).
# A plain name is `this` only for a call: a property named alone may be in an object initializer (`new D { P = 1 }`),
# and an implicit call (foreach, await, using) has no receiver text at all.
REACH = ("max(CASE WHEN r.receiver = 'base' THEN 0 WHEN r.receiver = 'this' OR (r.receiver IS NULL AND r.kind = 'Call')"
         " THEN 1 ELSE 2 END)")


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


def unreachable(conn: sqlite3.Connection, lineage: Lineage, stands_for: dict[int, list[tuple[int, int | None]]],
                edge: str) -> set[tuple[int, int, int]]:
    """(caller, base, callee) for the callers of a base member whose calls cannot run `callee`, an override
    of it (`stands_for`: target -> the (callee, via) pairs it stands for, as graph_callers builds them)."""
    bases = sorted(t for t, pairs in stands_for.items() if any(via is not None for _, via in pairs))
    rows = in_chunks(conn, f"SELECT r.from_key, r.target_key, {REACH} AS reach FROM refs r WHERE r.target_key IN"
                     f" ({{marks}}) AND {edge} AND r.from_key IS NOT NULL GROUP BY r.from_key, r.target_key"
                     " HAVING reach < 2", bases)
    lineage.learn({int(r[0]) for r in rows} | {c for t in bases for c, _ in stands_for[t]})
    blocked: set[tuple[int, int, int]] = set()
    for caller, base, reach in rows:
        for callee, via in stands_for[base]:
            if via is not None and not lineage.can_run(caller, callee, reach):
                blocked.add((int(caller), int(base), callee))
    return blocked


class Lineage:
    """The classes members are declared in and the base-class chains between them, read once per query."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._container: dict[int, str | None] = {}
        self._interface: dict[str, bool] = {}
        self._bases: dict[str, str | None] = {}

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
        return own == other or other in self._line(own) or own in self._line(other)

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

    def _line(self, type_id: str) -> list[str]:
        """The classes `type_id` derives from, nearest first (a cycle in broken code ends the walk)."""
        line: list[str] = []
        current: str | None = type_id
        while current is not None and len(line) < 64:
            if current not in self._bases:
                row = self._conn.execute("SELECT related_id FROM relations WHERE type_id = ? AND kind = 'base'"
                                         " AND related_id IS NOT NULL LIMIT 1", (current,)).fetchone()
                self._bases[current] = row[0] if row else None
            current = self._bases[current]
            if current is None or current in line or current == type_id:
                break
            line.append(current)
        return line
