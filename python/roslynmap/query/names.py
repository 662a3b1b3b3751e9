"""A plain name where an id is expected (design §8): `OrderService.Place`, `Place`, or a full name.

Matched against the declared symbols' full names with generic arguments left out, on whole
segments (`Service.Place` does not match `OrderService.Place`). One symbol: resolved as its id
would be. Several: AMBIGUOUS with the candidates. None: `None`, and the caller decides (refs_find
and graph_callers then look for unbound references with that name).
"""

from __future__ import annotations

import re
import sqlite3

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.ids import is_doc_id, is_stable_id
from roslynmap.model.kinds import TYPE_KINDS
from roslynmap.query import symbols

MAX_CANDIDATES = 10
PLAIN_NAME = re.compile(r"^[A-Za-z_@][\w@]*(?:<[\w, ]*>)?(?:\.[A-Za-z_@][\w@]*(?:<[\w, ]*>)?)*(?:\(\))?$")


def is_plain_name(text: str) -> bool:
    return bool(PLAIN_NAME.match(text.strip()))


def _without_generics(text: str) -> str:
    previous = None
    while previous != text:
        previous, text = text, re.sub(r"<[^<>]*>", "", text)
    return text


def lookup(conn: sqlite3.Connection, text: str, project: str | None = None) -> sqlite3.Row | None:
    """The one declared symbol a plain name stands for, None when none does; AMBIGUOUS otherwise."""
    wanted = _without_generics(text.strip().removesuffix("()")).replace("@", "")
    member = wanted.rsplit(".", 1)[-1]
    rows = symbols.rows_where(conn, "s.name", member, project, order="s.symbol_id, p.id")
    matched = [r for r in rows if any(name == wanted or name.endswith("." + wanted) for name in _full_names(r))]
    # `OrderService` names the class, not also its constructors (whose full name ends in .OrderService too).
    types = {r["symbol_id"] for r in matched if r["kind"] in TYPE_KINDS}
    matched = [r for r in matched if not (r["kind"] == "Constructor" and r["container_id"] in types)]
    distinct = list(dict.fromkeys(r["symbol_id"] for r in matched))
    if not distinct:
        return None
    if len(distinct) == 1:
        return symbols.resolve(conn, distinct[0], project)  # AMBIGUOUS itself when in several projects
    raise RoslynMapError(
        ErrorCode.AMBIGUOUS,
        f"'{text}' names {len(distinct)} symbols.",
        "Pass the symbol_id of the one you mean (overloads differ in their parameter list).",
        candidates=[{"symbol_id": r["symbol_id"], "kind": r["kind"], "project": r["project"], "file": r["file"],
                     "line": r["line"]} for r in matched][:MAX_CANDIDATES],
    )


def _full_names(row: sqlite3.Row) -> tuple[str, ...]:
    """The names a symbol answers to: its full name, and for an operator or conversion (`Entity.operator !=`)
    the one its metadata name spells (`Entity.op_Inequality`)."""
    fqn = _without_generics(row["fqn"] or "")
    if row["kind"] not in ("Operator", "Conversion"):
        return (fqn,)
    # `Shop.Money.explicit operator System.Decimal`: the type is what comes before the operator keyword.
    container = re.sub(r"\.(?:(?:im|ex)plicit )?operator\b.*$", "", fqn)
    return fqn, f"{container}.{row['name']}"


def resolve(conn: sqlite3.Connection, text: str, project: str | None = None) -> sqlite3.Row | None:
    """A symbol row for an id (NOT_FOUND when absent) or a plain name (None when nothing declared has it)."""
    stripped = text.strip()
    if is_doc_id(stripped) or is_stable_id(stripped) or not is_plain_name(stripped):
        return symbols.resolve(conn, stripped, project)  # ids, and the malformed-id error with suggestions
    return lookup(conn, stripped, project)


def require(conn: sqlite3.Connection, text: str, project: str | None = None) -> sqlite3.Row:
    """The one symbol an id or a plain name stands for: what every id-taking tool resolves with.
    NOT_FOUND offers the nearest declared names (a typo: `OrderService.Placee`)."""
    row = resolve(conn, text, project)
    if row is not None:
        return row
    member = text.strip().removesuffix("()").rsplit(".", 1)[-1]
    candidates = symbols.suggest(conn, text)
    raise RoslynMapError(
        ErrorCode.NOT_FOUND,
        f"No declared symbol is named '{text.strip()}'" + (f" in project '{project}'." if project else "."),
        ("Did you mean one of the candidates? Otherwise search" if candidates else "No close name; search")
        + f": symbols_search(query=\"{member}\").",
        candidates=candidates or None,
    )
