"""SQL helpers shared by the query modules: `IN (...)` lists run in chunks under SQLite's variable limit, and
values derived from a baseline computed once per read connection."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

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


T = TypeVar("T")


def memo(conn: sqlite3.Connection, key: str, compute: Callable[[], T]) -> T:
    """`compute()` once per connection (store/reader.MemoConnection); every time on a plain one."""
    cache: dict[str, Any] | None = getattr(conn, "memo", None)
    if cache is None:
        return compute()
    if key not in cache:
        cache[key] = compute()
    value: T = cache[key]
    return value


# A source file compiled into several projects (Polly's linked `Guard.cs`) is extracted once per project, so its
# references are stored once per project: this keeps one of each (SQL over refs aliased `r`, by the index on file
# and line).
ONCE_PER_SOURCE = ("NOT EXISTS (SELECT 1 FROM refs d WHERE d.file_id = r.file_id AND d.line = r.line AND"
                   " d.col = r.col AND d.kind = r.kind AND d.target_key IS r.target_key"
                   " AND d.target_name = r.target_name AND d.id < r.id)")
