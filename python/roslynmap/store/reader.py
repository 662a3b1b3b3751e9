"""Read-only access to published baselines: one connection per thread, schema checked on open."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.store.schema import SCHEMA_VERSION

_local = threading.local()


class MemoConnection(sqlite3.Connection):
    """A read connection with a place to keep answers derived from its whole content (every route,
    every DI registration). Safe because what it reads never changes: a baseline is immutable, and a
    refreshed overlay is read through a new connection."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.memo: dict[str, Any] = {}


def _connections() -> dict[str, sqlite3.Connection]:
    cache: dict[str, sqlite3.Connection] | None = getattr(_local, "connections", None)
    if cache is None:
        cache = {}
        _local.connections = cache
    return cache


def baseline_uri(path: Path) -> str:
    """The URI a published baseline is read through: immutable, so SQLite takes no locks and creates no
    -wal/-shm/-journal file beside it however many processes read it (its content never changes)."""
    return f"file:{quote(str(path))}?mode=ro&immutable=1"


def open_baseline(path: Path) -> sqlite3.Connection:
    """A cached read-only connection; a baseline of another schema version is refused."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise RoslynMapError(
            ErrorCode.INDEX_NOT_AVAILABLE, f"No baseline at {path}.", "Call index_ensure_baseline."
        ) from exc
    # A rebuilt baseline is a new file (atomic rename): key on the inode so no reader sees the old one.
    key = f"{path}:{stat.st_ino}:{stat.st_mtime_ns}"
    cache = _connections()
    conn = cache.pop(key, None)
    if conn is not None:
        cache[key] = conn  # most recently used last
        return conn
    conn = sqlite3.connect(baseline_uri(path), uri=True, check_same_thread=False, factory=MemoConnection)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA query_only=1")
    version = read_meta(conn).get("schema_version")
    if version != SCHEMA_VERSION:
        conn.close()
        raise RoslynMapError(
            ErrorCode.INDEX_NOT_AVAILABLE,
            f"The baseline at {path} has schema version {version}; this roslynmap reads {SCHEMA_VERSION}.",
            "Rebuild it: call index_ensure_baseline with force=true.",
        )
    cache[key] = conn
    _evict(cache)
    return conn


MAX_THREAD_CONNECTIONS = 8  # per thread; a rebuilt baseline is a new key, so old ones must age out


def _evict(cache: dict[str, sqlite3.Connection]) -> None:
    """Closes the least recently used connections of this thread beyond MAX_THREAD_CONNECTIONS."""
    while len(cache) > MAX_THREAD_CONNECTIONS:
        cache.pop(next(iter(cache))).close()


def read_meta(conn: sqlite3.Connection) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in conn.execute("SELECT key, value FROM meta"):
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def project_rows(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    rows = []
    for row in conn.execute("SELECT * FROM projects ORDER BY id"):
        item = dict(row)
        for key in ("target_frameworks", "load_errors", "first_errors", "skipped_frameworks"):
            item[key] = json.loads(item[key]) if item[key] else []
        item["restored"] = bool(item["restored"])
        rows.append(item)
    return rows
