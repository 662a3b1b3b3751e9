"""Symbol ids <-> the integer keys references are stored under (the `ids` table, see store/schema.py).

Queries over `refs` work in keys and translate at the edges: one lookup in, one batch lookup out.
Never join `ids`: in a workspace it is a compound view, which SQLite would materialize per join.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from roslynmap.query.sql import in_chunks


def key_of(conn: sqlite3.Connection, symbol_id: str) -> int | None:
    """The key of a symbol id, or None when no reference names it (no refs to or from it)."""
    row = conn.execute("SELECT key FROM ids WHERE symbol_id = ?", (symbol_id,)).fetchone()
    return None if row is None else int(row[0])


def ids_of(conn: sqlite3.Connection, keys: Iterable[int | None]) -> dict[int, str]:
    """The symbol id of each key (None keys, unresolved targets, are skipped)."""
    rows = in_chunks(conn, "SELECT key, symbol_id FROM ids WHERE key IN ({marks})",
                     sorted({k for k in keys if k is not None}))
    return {int(r[0]): r[1] for r in rows}


def keys_of(conn: sqlite3.Connection, symbol_ids: Iterable[str]) -> dict[str, int]:
    """The key of each symbol id a reference names (ids no reference names are left out)."""
    rows = in_chunks(conn, "SELECT symbol_id, key FROM ids WHERE symbol_id IN ({marks})", sorted(set(symbol_ids)))
    return {r[0]: int(r[1]) for r in rows}
