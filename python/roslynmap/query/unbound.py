"""Unbound references that could be a symbol: what the compiler could not bind, matched by name.

A reference whose target could not be bound is stored with its target name and receiver text only
(refs.target_key NULL). Graph and refs answers count these beside the bound ones and name them,
never as bound. Matching is by member name, narrowed by a receiver type when one is given: the
receiver text contains the type's name, or the receiver is a field, property or parameter declared
with that type. Where the compiler named candidates (no applicable overload: typically an argument whose
type comes from a missing package), they decide instead of the name: a call whose candidates include the
member asked for is listed with `candidate` (`only`, or `1 of N`), one whose candidates are all other
members is not listed at all. `could_be` is the one place that decides.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from roslynmap.query.keys import ids_of
from roslynmap.query.sql import in_chunks
from roslynmap.query.tally import Tally, tally

# Unbound reference kinds that can be calls: an unbound member access is recorded as Call when
# invoked, else as Read/Write (a property, or a method group).
CALL_KINDS = ("Call", "Instantiate", "Read", "Write")
ALL_KINDS = (*CALL_KINDS, "TypeRef")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass
class Unbound:
    """Unbound references matching a name (and receiver type), in file/line order."""

    items: list[dict[str, Any]] = field(default_factory=list)  # up to the limit asked for
    total: int = 0  # all that match
    same_name: int = 0  # all unbound references with the name(s), whatever their receiver
    by_name: dict[str, int] = field(default_factory=dict)  # matches per name
    candidate_of: int = 0  # matches whose compiler candidates include the member asked for
    from_keys: dict[int, int] = field(default_factory=dict)  # caller key -> matching calls
    counts: Tally = field(default_factory=lambda: Tally(0, [], []))  # by file and kind, over all matches

    @property
    def callers(self) -> int:
        return len(self.from_keys)


def simple_type_name(text: str) -> str:
    """`Shop.Data.IRepository<T>` -> `IRepository`; `IRepository`1` -> `IRepository`."""
    base = text.strip().split("<", 1)[0].split("`", 1)[0].rstrip("?[]! ")
    return base.rsplit(".", 1)[-1]


def declared_type_before(text: str, name: str) -> str | None:
    """The type written before `name` in a declaration or parameter list:
    `private readonly IRepository<Basket> _repo` -> `IRepository<Basket>`."""
    for match in re.finditer(rf"(?<![\w.]){re.escape(name)}\b", text):
        end = match.start()
        j = end - 1
        while j >= 0 and text[j].isspace():
            j -= 1
        depth, stop = 0, j
        while stop >= 0:
            c = text[stop]
            if c in ">]":
                depth += 1
            elif c in "<[":
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and (c.isspace() or c in "(,"):
                break
            stop -= 1
        written = text[stop + 1:j + 1].strip()
        if written and IDENT.match(written) and written not in {"return", "new", "this", "out", "ref", "in"}:
            return written
    return None


class _Receivers:
    """Declared types of receivers, where the index can know them: a field or property of the
    calling member's type, or a parameter of the calling member. Locals are not knowable."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.cache: dict[tuple[str, str], str | None] = {}

    def declared_type(self, from_id: str | None, receiver: str) -> str | None:
        name = receiver.removeprefix("this.").rstrip("?!")
        if not from_id or not IDENT.fullmatch(name):
            return None
        if (from_id, name) not in self.cache:
            self.cache[from_id, name] = self._lookup(from_id, name)
        return self.cache[from_id, name]

    def _lookup(self, from_id: str, name: str) -> str | None:
        row = self.conn.execute("SELECT container_id, signature FROM symbols WHERE symbol_id = ? LIMIT 1",
                                (from_id,)).fetchone()
        if row is None:
            return None
        container, signature = row
        if signature and (param := declared_type_before(signature.split("(", 1)[-1], name)):
            return param
        member = self.conn.execute(
            "SELECT signature FROM symbols WHERE container_id = ? AND name = ? AND kind IN ('Field', 'Property')"
            " LIMIT 1", (container, name)).fetchone() if container else None
        return declared_type_before(member[0], name) if member and member[0] else None


def candidates_of(text: str | None) -> list[str]:
    """refs.candidates: the JSON list of ids the compiler considered and rejected, or nothing."""
    if not text:
        return []
    found = json.loads(text)
    return [str(c) for c in found] if isinstance(found, list) else []


def candidate_mark(candidates: list[str], symbol_ids: Collection[str]) -> str | None:
    """`only` / `1 of 2` when the compiler's candidates include one of `symbol_ids`, else None.

    The same rule as `refs.COULD_BE` (SQL over the stored JSON, so a count need not read every row):
    a change to one must be made to the other."""
    hits = sum(1 for c in candidates if c in symbol_ids)
    if not hits:
        return None
    return "only" if len(candidates) == 1 else f"{hits} of {len(candidates)}"


def could_be(receiver: str | None, declared: str | None, receiver_type: str | None,
             candidates: list[str] | None = None, symbol_ids: Collection[str] | None = None) -> bool:
    """Whether an unbound reference could target a member of `receiver_type` (one of `symbol_ids`): by the
    compiler's candidates when it named some and the members are known, else by receiver."""
    if candidates and symbol_ids:
        return candidate_mark(candidates, symbol_ids) is not None
    if receiver_type is None:
        return True
    wanted = simple_type_name(receiver_type)
    if receiver and wanted.lower() in receiver.lower():
        return True
    return declared is not None and simple_type_name(declared) == wanted


def find(
    conn: sqlite3.Connection,
    names: Iterable[str],
    receiver_type: str | None = None,
    kinds: Iterable[str] = CALL_KINDS,
    file_prefix: str | None = None,
    limit: int = 50,
    offset: int = 0,
    symbol_ids: Collection[str] | None = None,
) -> Unbound:
    """Unbound references named any of `names` that could be the member asked for (`symbol_ids`: the
    declared members it may be, when known: the compiler's candidates are checked against them)."""
    wanted = sorted(set(names))
    kind_list = list(kinds)
    out = Unbound()
    if not wanted:
        return out
    sql = ("SELECT r.target_name, r.receiver, r.kind, r.from_key, f.path, r.line, r.col, r.candidates FROM refs r"
           " LEFT JOIN files f ON f.id = r.file_id WHERE r.target_key IS NULL AND r.target_name IN ({marks})")
    rows = [r for r in in_chunks(conn, sql, wanted) if r[2] in kind_list
            and (not file_prefix or (r[4] or "").startswith(file_prefix))]
    rows.sort(key=lambda r: (r[4] or "", r[5], r[6], r[0]))
    out.same_name = len(rows)
    names_of = ids_of(conn, (r[3] for r in rows))
    receivers = _Receivers(conn)
    matching = []
    for name, receiver, kind, from_key, path, line, col, candidate_text in rows:
        from_id = names_of.get(from_key) if from_key is not None else None
        declared = receivers.declared_type(from_id, receiver) if receiver_type and receiver else None
        candidates = candidates_of(candidate_text)
        if not could_be(receiver, declared, receiver_type, candidates, symbol_ids):
            continue
        item: dict[str, Any] = {"name": name, "receiver": receiver, "kind": kind, "file": path, "line": line,
                                "col": col, "from_symbol_id": from_id}
        if declared:
            item["receiver_declared_type"] = declared
        if symbol_ids and (mark := candidate_mark(candidates, symbol_ids)):
            item["candidate"] = mark  # the compiler's own shortlist names it: more than a name match
            out.candidate_of += 1
        matching.append(item)
        out.by_name[name] = out.by_name.get(name, 0) + 1
        if from_key is not None:
            out.from_keys[from_key] = out.from_keys.get(from_key, 0) + 1
    out.total = len(matching)
    out.items = matching[offset:offset + limit]
    out.counts = tally((m["file"], m["kind"], 1) for m in matching)
    return out


def split_member(text: str) -> tuple[str, str | None]:
    """`Repo.GetByIdAsync` -> (`GetByIdAsync`, `Repo`); `GetByIdAsync()` -> (`GetByIdAsync`, None)."""
    body = text.strip()
    if body.endswith("()"):
        body = body[:-2]
    body = re.sub(r"<[^<>]*>", "", body)  # IRepository<T>.Get -> IRepository.Get
    qualifier, _, member = body.rpartition(".")
    return member, (qualifier or None)


def describe(result: Unbound, member: str, receiver_type: str | None) -> str:
    """`2 unbound calls named AddItem` (with the receiver type when one narrowed them)."""
    names = ", ".join(sorted(result.by_name)) or member
    noun = "unbound call" if result.total == 1 else "unbound calls"
    typed = f" on a receiver like {receiver_type}" if receiver_type else ""
    named = f" ({result.candidate_of} with it among the compiler's candidates)" if result.candidate_of else ""
    return f"{result.total} {noun} named {names}{typed}{named}"


def sole_candidate_callers(conn: sqlite3.Connection, wanted: Mapping[str, str],
                           kinds: Mapping[str, Collection[str]]) -> list[tuple[int, str, int]]:
    """(caller key, the wanted member it stands for, calls) of unbound calls whose only compiler candidate
    is one of `wanted` (candidate id -> the member it stands for: itself, or a member implementing it), of
    the reference kinds that call it (`kinds`, per candidate id: a method group passed along is a Read, not
    a call).

    Such a call is the member's call as surely as the compiler can say without the missing reference
    (`_basketService.AddItemToBasket(..., item.Price)` with `item` from an unrestored package), so
    tests_find and impact_analyze walk through it. The candidates column holds the JSON the bridge wrote:
    one id is `["<id>"]`."""
    if not wanted:
        return []
    names = sorted({name for name, in in_chunks(
        conn, "SELECT DISTINCT name FROM symbols WHERE symbol_id IN ({marks})", sorted(wanted))})
    only = {json.dumps([c]): c for c in wanted}
    rows = in_chunks(conn, "SELECT r.from_key, r.candidates, r.kind, count(*) FROM refs r WHERE r.target_key IS NULL"
                     " AND r.target_name IN ({marks}) AND r.candidates IS NOT NULL AND r.from_key IS NOT NULL"
                     " GROUP BY r.from_key, r.candidates, r.kind", names)
    return sorted((int(key), wanted[only[text]], int(calls)) for key, text, kind, calls in rows
                  if text in only and kind in kinds.get(only[text], ()))
