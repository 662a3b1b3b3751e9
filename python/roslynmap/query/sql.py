"""SQL helpers shared by the query modules: `IN (...)` lists run in chunks under SQLite's variable limit."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

CHUNK = 500


def marks(values: list[Any]) -> str:
    """`?,?,?` for one placeholder per value."""
    return ",".join("?" * len(values))


def chunks(values: Iterable[Any]) -> Iterator[list[Any]]:
    items = list(values)
    for start in range(0, len(items), CHUNK):
        yield items[start:start + CHUNK]


def in_chunks(conn: sqlite3.Connection, sql: str, values: Iterable[Any]) -> list[Any]:
    """Runs `sql` (with a `{marks}` placeholder inside `IN (...)`) over `values`, CHUNK at a time."""
    rows: list[Any] = []
    for chunk in chunks(values):
        rows.extend(conn.execute(sql.format(marks=marks(chunk)), chunk))
    return rows
