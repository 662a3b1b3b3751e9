"""The solution's most central types: the declared types referenced (themselves or through a member) by the
most other types, repo_overview's `central_types`.

Ranking them reads every distinct (target, source) pair of references: about a second on bitwarden/server's
700 k references, too slow for an agent's first call. A baseline never changes, so its writer ranks once
and keeps the first STORED in `central_types` (rank order = rowid order). A workspace's overlay changes
references, so a workspace's overview ranks live (query/overview.py); so does a baseline written before the
table existed.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterable

from roslynmap.model.kinds import TYPE_KINDS

STORED = 100  # repo_overview shows 10

Names = Callable[[Iterable[int]], dict[int, str]]  # symbol id of each reference key


def type_of(symbol_id: str) -> str:
    """The type a member id belongs to (`M:Shop.A.B(x)` -> `T:Shop.A`); a type id is its own."""
    if symbol_id.startswith("T:"):
        return symbol_id
    name = symbol_id[2:].split("(", 1)[0]
    return "T:" + name.rsplit(".", 1)[0] if "." in name else symbol_id


def rank(conn: sqlite3.Connection, names: Names) -> list[tuple[str, int]]:
    """Every declared type some other type references, with how many types do, most first (ties by id)."""
    pairs = conn.execute("SELECT target_key, from_key FROM refs WHERE target_key IS NOT NULL AND from_key IS NOT NULL"
                         " GROUP BY target_key, from_key").fetchall()
    type_by_key = {key: type_of(name) for key, name in names({k for pair in pairs for k in pair}).items()}
    users: dict[str, set[str]] = defaultdict(set)
    for target, source in pairs:
        target_type, source_type = type_by_key.get(target, ""), type_by_key.get(source, "")
        if target_type != source_type:
            users[target_type].add(source_type)
    declared = {r[0] for r in conn.execute(
        f"SELECT symbol_id FROM symbols WHERE kind IN ({','.join('?' * len(TYPE_KINDS))})", TYPE_KINDS)}
    return sorted(((t, len(u)) for t, u in users.items() if t in declared), key=lambda tn: (-tn[1], tn[0]))


def store(conn: sqlite3.Connection) -> None:
    """Ranks a baseline being written (its `ids` a plain table) and keeps the first STORED."""
    def names(keys: Iterable[int]) -> dict[int, str]:
        return dict(conn.execute("SELECT key, symbol_id FROM ids").fetchall())
    conn.execute("CREATE TABLE central_types(symbol_id TEXT NOT NULL, used_by_types INTEGER NOT NULL)")
    conn.executemany("INSERT INTO central_types(symbol_id, used_by_types) VALUES (?,?)", rank(conn, names)[:STORED])


def stored(conn: sqlite3.Connection, limit: int) -> list[tuple[str, int]] | None:
    """The first `limit` of a baseline's stored ranking; None when it has none (written before the table)."""
    if limit > STORED or conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'central_types'").fetchone() is None:
        return None
    return [(r[0], int(r[1])) for r in
            conn.execute("SELECT symbol_id, used_by_types FROM central_types ORDER BY rowid LIMIT ?", (limit,))]
