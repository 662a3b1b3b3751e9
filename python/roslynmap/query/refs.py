"""refs_find: every classified reference to a symbol, filtered before paging, with exact totals."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roslynmap.model.rows import ReferenceItem
from roslynmap.query.excerpts import ExcerptReader
from roslynmap.query.keys import ids_of, key_of
from roslynmap.query.tally import tally

REF_FROM = "refs r LEFT JOIN files f ON f.id = r.file_id"


@dataclass
class RefsResult:
    items: list[ReferenceItem]
    total: int
    by_file: list[dict[str, Any]]
    by_kind: list[dict[str, Any]]
    unresolved_same_name: int


def _where(
    target_key: int | None, name: str, kinds: list[str], resolution: str | None, file_prefix: str | None
) -> tuple[str, list[Any]]:
    args: list[Any]
    if resolution == "unresolved":
        clauses, args = ["r.target_key IS NULL AND r.target_name = ?"], [name]
    else:  # a symbol no reference names has no key: `= NULL` matches nothing, as it should
        clauses, args = ["r.target_key = ?"], [target_key]
    if kinds:
        clauses.append(f"r.kind IN ({','.join('?' * len(kinds))})")
        args.extend(kinds)
    if file_prefix:
        clauses.append("substr(f.path, 1, ?) = ?")
        args.extend([len(file_prefix), file_prefix])
    return " AND ".join(clauses), args


def find(
    conn: sqlite3.Connection,
    root: Path,
    target_id: str,
    name: str,
    kinds: list[str],
    resolution: str | None,
    file_prefix: str | None,
    limit: int,
    offset: int,
) -> RefsResult:
    where, args = _where(key_of(conn, target_id), name, kinds, resolution, file_prefix)
    rows = conn.execute(
        f"SELECT r.kind, r.from_key, r.line, r.col, r.receiver, r.target_key, r.target_name, f.path"
        f" FROM {REF_FROM} WHERE {where} ORDER BY f.path, r.line, r.col, r.kind LIMIT ? OFFSET ?",
        [*args, limit, offset],
    ).fetchall()
    # total, by_file and by_kind from one grouped pass over the whole filtered set
    counts = tally(conn.execute(
        f"SELECT f.path, r.kind, count(*) FROM {REF_FROM} WHERE {where} GROUP BY r.file_id, r.kind", args))
    total, by_file, by_kind = counts.total, counts.by_file, counts.by_kind
    unresolved = 0
    if resolution != "unresolved":
        unresolved = conn.execute(
            "SELECT count(*) FROM refs WHERE target_key IS NULL AND target_name = ?", (name,)
        ).fetchone()[0]
    excerpts = ExcerptReader(root)
    names = ids_of(conn, (r[1] for r in rows))
    items = []
    for kind, from_key, line, col, receiver, resolved_key, target_name, path in rows:
        item: ReferenceItem = {"file": path, "line": line, "col": col, "kind": kind,
                                "from_symbol_id": names.get(from_key),
                                "excerpt": excerpts.line(path, line)}
        if resolved_key is None:
            item["unresolved"] = True
            item["name"] = target_name
            if receiver:
                item["receiver"] = receiver
        items.append(item)
    return RefsResult(items, total, by_file, by_kind, unresolved)


def dispatch_targets(conn: sqlite3.Connection, symbol_id: str) -> list[tuple[str, str]]:
    """Members this one implements or overrides: (target id, "Implementation" | "Override")."""
    rows = conn.execute("SELECT DISTINCT target_key, kind FROM refs WHERE from_key = ? AND kind IN"
                        " ('Implementation', 'Override') AND target_key IS NOT NULL",
                        (key_of(conn, symbol_id),)).fetchall()
    names = ids_of(conn, (r[0] for r in rows))
    return sorted((names[r[0]], r[1]) for r in rows)
