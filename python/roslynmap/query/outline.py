"""code_outline: what a file or a type declares, with lines, from the index alone (no file is read).

A flat list in source order with a `depth` (0 = top level), so the envelope can cut it anywhere and the
preview still reads as a tree. A partial type appears in every file holding one of its parts, with that
part's lines; its members appear under the part that declares them.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from roslynmap.model.kinds import TYPE_KINDS

COLUMNS = "s.symbol_id, s.name, s.kind, s.signature, s.line, s.end_line, s.container_id, s.visibility, s.is_static"


def _item(row: sqlite3.Row | tuple[Any, ...], depth: int, file: str | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"depth": depth, "kind": row[2], "name": row[1], "line": row[4], "end_line": row[5],
                            "symbol_id": row[0], "signature": row[3]}
    if file is not None:
        item["file"] = file
    if not row[3]:  # the signature says visibility and static when there is one
        if row[7] and row[7] != "public":
            item["visibility"] = row[7]
        if row[8]:
            item["static"] = True
    return item


def file_outline(conn: sqlite3.Connection, path: str) -> list[dict[str, Any]] | None:
    """The declarations of one indexed file in source order, nested by `depth`; None when the file is
    not indexed."""
    row = conn.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
    if row is None:
        return None
    file_id = row[0]
    rows = list(conn.execute(f"SELECT {COLUMNS} FROM symbols s WHERE s.file_id = ?", (file_id,)))
    # Other parts of partial types declared in this file (their main row is elsewhere).
    rows += [(r[0], r[1], r[2], r[3], r[9], r[10], r[6], r[7], r[8]) for r in conn.execute(
        f"SELECT {COLUMNS}, sp.line, sp.end_line FROM symbol_parts sp JOIN symbols s ON s.symbol_id = sp.symbol_id"
        " AND s.project_id = sp.project_id WHERE sp.file_id = ?", (file_id,))]
    # One row per (id, line): the same declaration in two projects sharing the file is listed once.
    unique = {(r[0], r[4]): r for r in rows}
    ordered = sorted(unique.values(), key=lambda r: (r[4] or 0, -(r[5] or 0), r[0]))
    out: list[dict[str, Any]] = []
    enclosing: list[int] = []  # end lines of the types around the current position
    for r in ordered:
        while enclosing and enclosing[-1] < (r[4] or 0):
            enclosing.pop()
        out.append(_item(r, len(enclosing)))
        if r[2] in TYPE_KINDS:
            enclosing.append(r[5] or r[4] or 0)
    return out


def type_members(conn: sqlite3.Connection, type_id: str, project_id: int) -> list[dict[str, Any]]:
    """The members a type declares (nested types included, not their members), by file and line."""
    rows = conn.execute(
        f"SELECT {COLUMNS}, f.path FROM symbols s LEFT JOIN files f ON f.id = s.file_id"
        " WHERE s.container_id = ? AND s.project_id = ?", (type_id, project_id)).fetchall()
    rows.sort(key=lambda r: (r[9] or "", r[4] or 0, r[0]))
    return [_item(r, 1, r[9]) for r in rows]
