"""symbols_resolve: the bridge between the index and the files as they are now.

Both directions parse the live file (syntax only) so they stay right after edits the index has
not seen: an id gets its current position; a position gets its enclosing declarations, each
mapped to the index when it is there.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.query.paths import readable_file
from roslynmap.query.syntax import Declaration, declarations, enclosing


def _read(root: Path, rel: str, virtual: dict[str, str] | None = None) -> bytes | None:
    if virtual and rel in virtual:  # an ephemeral workspace's unsaved content
        return virtual[rel].encode("utf-8")
    try:
        return readable_file(root, rel).read_bytes()  # refuses a symlink out of the repo and .git/
    except RoslynMapError as exc:
        if exc.code == ErrorCode.NOT_FOUND:
            return None
        raise
    except OSError:
        return None


def _indexed(conn: sqlite3.Connection, rel: str, decl: Declaration) -> sqlite3.Row | None:
    """The indexed symbol a live declaration stands for: same file, kind and full name; among
    overloads, the one whose indexed line is closest."""
    rows = conn.execute(
        "SELECT s.symbol_id, s.line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id"
        " WHERE f.path = ? AND s.name = ? AND s.kind = ?", (rel, decl.name, decl.kind)).fetchall()
    rows += conn.execute(
        "SELECT sp.symbol_id, sp.line, sp.end_line FROM symbol_parts sp JOIN files f ON f.id = sp.file_id"
        " WHERE f.path = ? AND sp.symbol_id IN (SELECT symbol_id FROM symbols WHERE name = ? AND kind = ?)",
        (rel, decl.name, decl.kind)).fetchall()
    matching = [r for r in rows if _fqn_of(conn, r[0]) == decl.fqn]
    if not matching:
        return None
    best: sqlite3.Row = min(matching, key=lambda r: abs(r[1] - decl.line))
    return best


def _fqn_of(conn: sqlite3.Connection, symbol_id: str) -> str | None:
    row = conn.execute("SELECT fqn FROM symbols WHERE symbol_id = ? LIMIT 1", (symbol_id,)).fetchone()
    return row[0] if row else None


def at_position(conn: sqlite3.Connection | None, root: Path, rel: str, line: int, col: int,
                virtual: dict[str, str] | None = None) -> dict[str, Any]:
    source = _read(root, rel, virtual)
    if source is None:
        raise RoslynMapError(ErrorCode.NOT_FOUND, f"No file '{rel}' in the working tree.",
                             "Check the path (repo-relative, e.g. \"src/Api/OrdersController.cs\").")
    line_count = source.count(b"\n") + 1
    if line > line_count:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT,
                             f"line {line} is past the end of '{rel}' ({line_count} lines).",
                             f"Use a line between 1 and {line_count}.")
    chain = []
    for decl in enclosing(declarations(source), line):
        row = _indexed(conn, rel, decl) if conn is not None else None
        chain.append({
            "kind": decl.kind, "name": decl.name, "fqn": decl.fqn, "line": decl.line, "col": decl.col,
            "end_line": decl.end_line, "symbol_id": row[0] if row else decl.approximate_id(),
            "in_index": row is not None,
        })
    innermost = chain[-1] if chain else None
    nearest = next((c for c in reversed(chain) if c["in_index"]), None)
    return {"file": rel, "line": line, "col": col, "chain": chain,
            "symbol_id": innermost["symbol_id"] if innermost else None,
            "in_index": bool(innermost and innermost["in_index"]),
            "nearest_indexed": nearest["symbol_id"] if nearest else None}


def live_location(conn: sqlite3.Connection, root: Path, row: sqlite3.Row,
                  virtual: dict[str, str] | None = None) -> dict[str, Any]:
    """Where an indexed symbol is now. `index_stale` when the file moved it; `relocated` when only
    a same-name declaration in the same file was found (its container or kind changed)."""
    indexed = {"file": row["file"], "line": row["line"], "col": row["col"], "end_line": row["end_line"]}
    out: dict[str, Any] = {"symbol_id": row["symbol_id"], "kind": row["kind"], "indexed": indexed}
    source = _read(root, row["file"], virtual)
    if source is None:
        return {**out, "found": False, "index_stale": True, "relocated": False}
    decls = declarations(source)
    exact = [d for d in decls if d.kind == row["kind"] and d.fqn == row["fqn"]]
    same_name = [d for d in decls if d.name == row["name"]]
    pick = exact or same_name
    if not pick:
        return {**out, "found": False, "index_stale": True, "relocated": False}
    best = min(pick, key=lambda d: abs(d.line - row["line"]))
    current = {"file": row["file"], "line": best.line, "col": best.col, "end_line": best.end_line}
    stale = (best.line, best.col) != (row["line"], row["col"]) or best.end_line != row["end_line"]
    return {**out, "found": True, "location": current, "index_stale": stale, "relocated": not exact}
