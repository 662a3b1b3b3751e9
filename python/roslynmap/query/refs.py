"""refs_find: every classified reference to a symbol, filtered before paging, with exact totals."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roslynmap.query.excerpts import ExcerptReader

REF_FROM = "refs r LEFT JOIN files f ON f.id = r.file_id"


@dataclass
class RefsResult:
    items: list[dict[str, Any]]
    total: int
    by_file: list[dict[str, Any]]
    by_kind: list[dict[str, Any]]
    unresolved_same_name: int


def _where(
    target_id: str, name: str, kinds: list[str], resolution: str | None, file_prefix: str | None
) -> tuple[str, list[Any]]:
    args: list[Any]
    if resolution == "unresolved":
        clauses, args = ["r.target_id IS NULL AND r.target_name = ?"], [name]
    else:
        clauses, args = ["r.target_id = ?"], [target_id]
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
    where, args = _where(target_id, name, kinds, resolution, file_prefix)
    rows = conn.execute(
        f"SELECT r.kind, r.from_id, r.line, r.col, r.receiver, r.target_id, r.target_name, f.path"
        f" FROM {REF_FROM} WHERE {where} ORDER BY f.path, r.line, r.col, r.kind LIMIT ? OFFSET ?",
        [*args, limit, offset],
    ).fetchall()
    total = conn.execute(f"SELECT count(*) FROM {REF_FROM} WHERE {where}", args).fetchone()[0]
    by_file = [{"file": r[0], "count": r[1]} for r in conn.execute(
        f"SELECT f.path, count(*) c FROM {REF_FROM} WHERE {where} GROUP BY f.path ORDER BY c DESC, f.path LIMIT 15",
        args)]
    by_kind = [{"kind": r[0], "count": r[1]} for r in conn.execute(
        f"SELECT r.kind, count(*) c FROM {REF_FROM} WHERE {where} GROUP BY r.kind ORDER BY c DESC, r.kind", args)]
    unresolved = 0
    if resolution != "unresolved":
        unresolved = conn.execute(
            "SELECT count(*) FROM refs WHERE target_id IS NULL AND target_name = ?", (name,)
        ).fetchone()[0]
    excerpts = ExcerptReader(root)
    items = []
    for kind, from_id, line, col, receiver, resolved_id, target_name, path in rows:
        item: dict[str, Any] = {"file": path, "line": line, "col": col, "kind": kind, "from_symbol_id": from_id,
                                "excerpt": excerpts.line(path, line)}
        if resolved_id is None:
            item["unresolved"] = True
            item["name"] = target_name
            if receiver:
                item["receiver"] = receiver
        items.append(item)
    return RefsResult(items, total, by_file, by_kind, unresolved)


def dispatch_targets(conn: sqlite3.Connection, symbol_id: str) -> list[tuple[str, str]]:
    """Members this one implements or overrides: (target id, "Implementation" | "Override")."""
    return [(r[0], r[1]) for r in conn.execute(
        "SELECT DISTINCT target_id, kind FROM refs WHERE from_id = ? AND kind IN ('Implementation', 'Override')"
        " AND target_id IS NOT NULL ORDER BY target_id", (symbol_id,))]
