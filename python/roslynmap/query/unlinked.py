"""Implementations the compiler could not link, matched by name: a member of a class implementing a bound interface
(or deriving from a bound base) whose signature names a type that did not bind.

Exceptionless.Tests' `TestOAuthProviderClient : IOAuthProviderClient` implements `Task<UserInfo>
GetGitHubUserInfoAsync(string)`, declared in Exceptionless.Web; the OAuth2 package holding UserInfo did not restore, and
each compilation makes its own placeholder for the missing type, so the two signatures differ and no member-level
Implementation reference is stored (inside one project the placeholders match and the reference is there). The type
relation is bound: its members are matched to the interface's (or base's) by name, type parameter count and parameter
count, parameter types compared by their last name (a missing type is written bare). A pair is taken only when one of
the two members names a type that did not bind (an unbound TypeRef from it) and no Implementation or Override
reference links them already. Such a link is an inference: graph_callers marks its edges `inferred: unlinked_signature`.
"""

from __future__ import annotations

import re
import sqlite3

from roslynmap.query.keys import keys_of
from roslynmap.query.sql import in_chunks, memo
from roslynmap.query.typeargs import parameters

_MEMBER_KINDS = ("Method", "Property", "Indexer", "Event")


def implementations(conn: sqlite3.Connection) -> dict[int, list[int]]:
    """Implementing member key -> the interface or base member keys it implements by name (see the module
    docstring); once per connection."""
    return memo(conn, "unlinked_implementations", lambda: _compute(conn))  # shared: callers only read it


def implemented(conn: sqlite3.Connection) -> dict[int, list[int]]:
    """The same links the other way: interface or base member key -> its implementing member keys."""
    def invert() -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for member, bases in implementations(conn).items():
            for base in bases:
                out.setdefault(base, []).append(member)
        return out
    return memo(conn, "unlinked_implemented", invert)


def _compute(conn: sqlite3.Connection) -> dict[int, list[int]]:
    unresolved = {str(r[0]) for r in conn.execute(
        "SELECT DISTINCT i.symbol_id FROM refs r JOIN ids i ON i.key = r.from_key WHERE r.kind = 'TypeRef'"
        " AND r.target_key IS NULL")}
    if not unresolved:
        return {}
    relations: dict[str, set[str]] = {}
    for type_id, related in conn.execute("SELECT DISTINCT type_id, related_id FROM relations WHERE kind IN"
                                         " ('base', 'interface') AND related_id IS NOT NULL"):
        relations.setdefault(str(type_id), set()).add(str(related))
    kinds = ", ".join(f"'{k}'" for k in _MEMBER_KINDS)
    touched = {str(r[0]) for r in in_chunks(conn, "SELECT DISTINCT container_id FROM symbols WHERE symbol_id IN"
                                                  " ({marks})", sorted(unresolved)) if r[0]}
    # The types whose members may pair up: a type naming a missing type in a member, and what it relates to.
    types = touched | {t for t, related in relations.items() if related & touched} \
        | {r for t in touched for r in relations.get(t, ())}
    members: dict[str, list[tuple[str, str, int]]] = {}  # type -> (member id, name, type parameter count)
    for sid, name, container, arity in in_chunks(
            conn, f"SELECT DISTINCT symbol_id, name, container_id, arity FROM symbols WHERE kind IN ({kinds})"
                  " AND is_static = 0 AND container_id IN ({marks})", sorted(types)):
        members.setdefault(str(container), []).append((str(sid), str(name), int(arity or 0)))
    pairs: list[tuple[str, str]] = []
    for type_id, related in relations.items():
        for member, name, arity in members.get(type_id, ()):
            for base_type in related:
                pairs.extend((member, base) for base, base_name, base_arity in members.get(base_type, ())
                             if base_name == name and base_arity == arity
                             and (member in unresolved or base in unresolved) and _same_parameters(member, base))
    if not pairs:
        return {}
    keys = keys_of(conn, {sid for pair in pairs for sid in pair})
    linked = {(int(a), int(b)) for a, b in in_chunks(
        conn, "SELECT from_key, target_key FROM refs WHERE kind IN ('Implementation', 'Override') AND from_key IN"
              " ({marks})", sorted({keys[m] for m, _ in pairs if m in keys}))}
    found: dict[int, list[int]] = {}
    for member, base in pairs:
        if member in keys and base in keys and (keys[member], keys[base]) not in linked:
            found.setdefault(keys[member], []).append(keys[base])
    return found


def _same_parameters(member: str, base: str) -> bool:
    """As many parameters, each type the same by its last name (`OAuth2.Models.UserInfo` and a bare `UserInfo`)."""
    mine, theirs = parameters(member), parameters(base)
    return len(mine) == len(theirs) and all(_last(a) == _last(b) for a, b in zip(mine, theirs, strict=True))


_DOTTED = re.compile(r"[A-Za-z_][\w`]*(?:\.[A-Za-z_][\w`]*)+")


def _last(type_name: str) -> str:
    """Every name in a type by its last part, type arguments included (`IEnumerable{Order}` is no
    `IEnumerable{MissingDto}`)."""
    return _DOTTED.sub(lambda m: m.group(0).rsplit(".", 1)[-1], type_name)
