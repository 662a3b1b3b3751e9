"""Semantic diff between two indexes of one repository: symbols added, removed and signature-changed,
and the surfaces (endpoints, config keys, tables, DI registrations) added or removed.

`before` and `after` are two read connections: two baselines, or a baseline and a workspace's merged
view. With `files` (a workspace's replaced files) the symbol comparison reads only those files' rows.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from roslynmap.query import surfaces
from roslynmap.query.sql import in_chunks

SYMBOL_SQL = ("SELECT s.symbol_id, s.stable_id, s.kind, s.name, s.container_id, s.signature, f.path, s.line"
              " FROM symbols s LEFT JOIN files f ON f.id = s.file_id")
Row = tuple[str, str, str, str, str | None, str | None, str | None, int | None]


def _symbols(conn: sqlite3.Connection, files: list[str] | None) -> dict[str, Row]:
    if files is None:
        rows = conn.execute(SYMBOL_SQL + " ORDER BY s.project_id").fetchall()
    else:
        rows = in_chunks(conn, SYMBOL_SQL + " WHERE f.path IN ({marks}) ORDER BY s.project_id", files)
    out: dict[str, Row] = {}
    for row in rows:
        out.setdefault(row[0], tuple(row))
    return out


def _item(row: Row) -> dict[str, Any]:
    return {"symbol_id": row[0], "kind": row[2], "signature": row[5], "file": row[6], "line": row[7]}


def symbols(before: sqlite3.Connection, after: sqlite3.Connection,
            files: list[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """{added, removed, signature_changed}. Same doc id with another stable id or signature (return
    type, modifiers) is a change; a removed and an added member of one container, name and kind (one
    of each: parameters changed, so the doc id did) is a change too."""
    old, new = _symbols(before, files), _symbols(after, files)
    changed = []
    for sid in sorted(old.keys() & new.keys()):
        a, b = old[sid], new[sid]
        if a[1] != b[1] or a[5] != b[5]:
            changed.append({**_item(b), "before": a[5], "stable_id_before": a[1], "stable_id": b[1]})
    removed = {sid: old[sid] for sid in old.keys() - new.keys()}
    added = {sid: new[sid] for sid in new.keys() - old.keys()}
    by_name: dict[tuple[str | None, str, str], tuple[list[str], list[str]]] = {}
    for sid, row in removed.items():
        by_name.setdefault((row[4], row[3], row[2]), ([], []))[0].append(sid)
    for sid, row in added.items():
        by_name.setdefault((row[4], row[3], row[2]), ([], []))[1].append(sid)
    for gone, came in by_name.values():
        if len(gone) == 1 and len(came) == 1:
            a, b = removed.pop(gone[0]), added.pop(came[0])
            changed.append({**_item(b), "before": a[5], "symbol_id_before": a[0], "stable_id_before": a[1],
                            "stable_id": b[1]})
    order = lambda i: (i["file"] or "", i["line"] or 0, i["symbol_id"])  # noqa: E731
    return {"added": sorted(map(_item, added.values()), key=order),
            "removed": sorted(map(_item, removed.values()), key=order),
            "signature_changed": sorted(changed, key=order)}


def _surface_keys(conn: sqlite3.Connection) -> dict[str, dict[str, dict[str, Any]]]:
    """Per surface, key -> where it is (first occurrence)."""
    out: dict[str, dict[str, dict[str, Any]]] = {"endpoints": {}, "config_keys": {}, "tables": {},
                                                 "di_registrations": {}}
    for route in surfaces.endpoints(conn, None, None).items:
        out["endpoints"].setdefault(f"{route['method']} {route['route']}",
                                    {"file": route.get("file"), "line": route.get("line")})
    for kind, section in (("Config", "config_keys"), ("DbTable", "tables"), ("DiRegistration", "di_registrations")):
        for fact in surfaces.facts_of_kind(conn, kind):
            # A rename's old name; a DbSet inherited from a package's context (Identity's Users: a table only where
            # a mapping names its entity, which surfaces_list_db_tables decides).
            if fact.get("dynamic") or fact.get("source") in surfaces.MIGRATION_OPERATIONS \
                    or (kind == "DbTable" and fact.get("inherited") == "package"):
                continue
            key = fact["key"]
            if kind == "DiRegistration" and fact.get("implementation"):
                key = f"{key} -> {fact['implementation']}"
            if kind == "DiRegistration" and fact.get("lifetime"):
                key = f"{key} ({fact['lifetime']})"
            out[section].setdefault(key, {"file": fact["file"], "line": fact["line"]})
    return out


def surface_changes(before: sqlite3.Connection, after: sqlite3.Connection) -> dict[str, dict[str, list[Any]]]:
    """{section: {added: [...], removed: [...]}} for endpoints, config keys, tables and DI registrations."""
    old, new = _surface_keys(before), _surface_keys(after)
    out: dict[str, dict[str, list[Any]]] = {}
    for section in old:
        added = [{"key": k, **new[section][k]} for k in sorted(new[section].keys() - old[section].keys())]
        removed = [{"key": k, **old[section][k]} for k in sorted(old[section].keys() - new[section].keys())]
        if added or removed:
            out[section] = {"added": added, "removed": removed}
    return out

