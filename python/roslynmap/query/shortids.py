"""Short symbol ids: documentation ids without the namespaces a baseline does not need to tell types apart.

`M:Shop.Services.OrderService.Place(Shop.Domain.Order,System.Threading.CancellationToken)` is answered as
`M:OrderService.Place(Order,CancellationToken)` when no other type of the baseline (declared, or a
framework/package type its references name) is also called `OrderService`, `Order` or
`CancellationToken`. A type whose name is shared keeps as many of its innermost namespaces as tell it
apart (`BasketAggregate.Basket` beside a namespace `Web.Pages.Basket` and a type `Basket` elsewhere), so
a short id names one symbol exactly as its full id does, and either is accepted back (`expand`). Every
type's full path counts as one of its own short forms, so a short id is never another symbol's full id.

The short forms are derived from the whole baseline once per read connection (store/reader.MemoConnection).
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from typing import Any

from roslynmap.model.ids import is_doc_id

# A dotted name inside a doc id: a type path, or a member path ending in a member name.
# No `@`: in a doc id it only marks a by-ref parameter (`System.Boolean@`), after the type's path.
_PATH = re.compile(r"[A-Za-z_][\w`]*(?:\.[A-Za-z_#][\w`#<>$]*)*")
# A doc id inside free text (hints, warnings): a prefix, a path, and an optional parameter list.
_IN_TEXT = re.compile(r"\b[TMPFE]:[A-Za-z_@<][\w.@`#<>$]*(?:\([^()\s]*\))?")


# The types C# names by keyword (`int`, `bool`...): parameter lists name them in most ids, yet a baseline
# records an external type only when code references it by name.
_KEYWORD_TYPES = ("Boolean", "Byte", "SByte", "Char", "Decimal", "Double", "Single", "Int16", "Int32", "Int64",
                  "UInt16", "UInt32", "UInt64", "IntPtr", "UIntPtr", "Object", "String")


def _types(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """(type path as in doc ids, its namespace) of every declared type, every external type named and the
    keyword types."""
    # Ranges, not LIKE (case-insensitive, so no index): `T:` ids sort between 'T:' and 'T;'.
    rows = conn.execute("SELECT DISTINCT substr(symbol_id, 3), coalesce(namespace, '') FROM symbols"
                        " WHERE symbol_id >= 'T:' AND symbol_id < 'T;'").fetchall()
    with contextlib.suppress(sqlite3.OperationalError):  # a view without externals: declared types only
        rows += conn.execute(
            "SELECT DISTINCT substr(symbol_id, 3), coalesce(namespace, '') FROM externals"
            " WHERE symbol_id >= 'T:' AND symbol_id < 'T;' UNION SELECT DISTINCT substr(container_id, 3),"
            " coalesce(namespace, '') FROM externals WHERE container_id >= 'T:' AND container_id < 'T;'").fetchall()
    return [(str(r[0]), str(r[1])) for r in rows] + [("System." + name, "System") for name in _KEYWORD_TYPES]


def _without_arity(path: str) -> str:
    return re.sub(r"`\d+", "", path)


def _suffixes(path: str, namespace: str) -> list[str]:
    """`A.B.C.Type` in namespace `A.B.C`: `Type`, `C.Type`, `B.C.Type`, `A.B.C.Type` (shortest first)."""
    prefix = namespace + "." if namespace else ""
    if not prefix or not path.startswith(prefix):
        return [path]
    name, spaces = path[len(prefix):], namespace.split(".")
    return [".".join([*spaces[len(spaces) - keep:], name]) if keep else name for keep in range(len(spaces) + 1)]


def build(conn: sqlite3.Connection) -> dict[str, str]:
    """Full type path -> its shortest form no other type shares (types with no shorter form left out)."""
    candidates: dict[str, list[str]] = {}
    for path, namespace in _types(conn):
        candidates.setdefault(path, _suffixes(path, namespace))
        # Generic instantiations in parameter lists are written without the arity (`List{T}`): key them too.
        bare = _without_arity(path)
        if bare != path:
            candidates.setdefault(bare, [_without_arity(c) for c in candidates[path]])
    claimed: dict[str, set[str]] = {}
    for path, forms in candidates.items():
        for form in forms:
            claimed.setdefault(form, set()).add(path)
        claimed.setdefault(path, set()).add(path)  # a short path must never be another type's full path
    short_of: dict[str, str] = {}
    for path, forms in candidates.items():
        form = next((f for f in forms if claimed[f] == {path}), path)
        if form != path:
            short_of[path] = form
    return short_of


def table(conn: sqlite3.Connection) -> dict[str, str]:
    """`build`, kept on the read connection (its content never changes)."""
    memo: dict[str, Any] | None = getattr(conn, "memo", None)
    if memo is None:
        return build(conn)
    found: dict[str, str] | None = memo.get("short_ids")
    if found is None:
        found = memo["short_ids"] = build(conn)
    return found


def _shorten_path(path: str, short: dict[str, str], member: bool) -> str:
    """A type path, or a member path (its last segment the member's name), with the type shortened."""
    if not member:
        return short.get(path, path)
    head, sep, name = path.rpartition(".")
    return short.get(head, head) + sep + name if sep else path


def shorten(symbol_id: str, short: dict[str, str]) -> str:
    """The short form of one doc id (itself when nothing can be left out)."""
    if not short or not is_doc_id(symbol_id):
        return symbol_id
    kind, body = symbol_id[:2], symbol_id[2:]
    path, paren, rest = body.partition("(")
    path, tilde, ret = path.partition("~")
    out = kind + _shorten_path(path, short, kind != "T:")
    if tilde:
        out += tilde + _params(ret, short)
    if paren:
        out += paren + _params(rest, short)
    return out


def _params(text: str, short: dict[str, str]) -> str:
    return _PATH.sub(lambda m: short.get(m.group(0), m.group(0)), text)


def shorten_text(text: str, short: dict[str, str]) -> str:
    """Every doc id inside free text, shortened (hints that name an id to pass)."""
    return _IN_TEXT.sub(lambda m: shorten(m.group(0), short), text) if short and ":" in text else text


# A dotted name in prose (`Shop.Services.OrderService.Place`), not part of an id, a path or a longer word.
_NAME_IN_TEXT = re.compile(r"(?<![\w.:/`])[A-Za-z_][\w`]*(?:\.[A-Za-z_][\w`]*)+")


def shorten_names(text: str, short: dict[str, str]) -> str:
    """Dotted type and member names in prose (headlines name symbols by their full name): the type part
    shortened as in ids, so `Shop.Services.OrderService.Place` reads `OrderService.Place`."""
    if not short or "." not in text:
        return text

    def one(match: re.Match[str]) -> str:
        parts = match.group(0).split(".")
        for end in range(len(parts), 1, -1):
            head = ".".join(parts[:end])
            if head in short:
                return ".".join([short[head], *parts[end:]])
        return match.group(0)

    return _NAME_IN_TEXT.sub(one, text)


def expand(conn: sqlite3.Connection, text: str) -> list[str]:
    """The full ids whose short form is `text`: one for a short id of this baseline, none otherwise."""
    if not is_doc_id(text):
        return []
    short = table(conn)
    if not short:
        return []
    full = _inverse(conn, short)
    kind, body = text[:2], text[2:]
    path = body.split("(", 1)[0].split("~", 1)[0]
    if kind == "T:":
        prefix = kind + full.get(path, path)
    else:
        head, sep, name = path.rpartition(".")
        if not sep:
            return []
        prefix = f"{kind}{full.get(head, head)}.{name}"
    found: set[str] = set()
    for source in ("symbols", "externals"):
        with contextlib.suppress(sqlite3.OperationalError):  # a view without externals
            found.update(r[0] for r in conn.execute(
                f"SELECT DISTINCT symbol_id FROM {source} WHERE symbol_id >= ? AND symbol_id < ?",
                (prefix, prefix + "\uffff")))
    return sorted(c for c in found if c != text and shorten(c, short) == text)


def _inverse(conn: sqlite3.Connection, short: dict[str, str]) -> dict[str, str]:
    memo: dict[str, Any] | None = getattr(conn, "memo", None)
    if memo is not None and "short_ids_inverse" in memo:
        found: dict[str, str] = memo["short_ids_inverse"]
        return found
    inverse = {s: f for f, s in short.items()}
    if memo is not None:
        memo["short_ids_inverse"] = inverse
    return inverse
