"""repo_overview: the first call on an unknown codebase, from the index alone.

Projects with a role decided from evidence the index holds: `test` (the name ends in Test(s)/Spec(s),
or it lives under a tests/ folder), `web` (it declares routes, Razor pages or middleware), `app` (it
has an entry point: top-level statements or a static Main), else `library`. Then the entry points,
the surface counts, and the most central types: the types referenced (themselves or their members) by
the most other types of the solution.
"""

from __future__ import annotations

import re
import sqlite3
from collections import Counter, defaultdict
from typing import Any

from roslynmap.model.kinds import TYPE_KINDS
from roslynmap.model.readable import IN_REPOSITORY_SQL
from roslynmap.query.keys import ids_of
from roslynmap.query.sql import memo
from roslynmap.query.surfaces import _project_of_path, _projects, endpoints, is_migration_file

TEST_NAME = re.compile(r"(?:^|[.\-_])(?:[A-Za-z]*Tests?|[A-Za-z]*Specs?)$")
WEB_FACTS = ("Route", "RazorPage", "RazorComponent", "Middleware", "ControllerAction")


def _type_of(symbol_id: str) -> str:
    """The type a member id belongs to (`M:Shop.A.B(x)` -> `T:Shop.A`); a type id is its own."""
    if symbol_id.startswith("T:"):
        return symbol_id
    name = symbol_id[2:].split("(", 1)[0]
    return "T:" + name.rsplit(".", 1)[0] if "." in name else symbol_id


def entry_points(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT s.symbol_id, p.name, f.path, s.line FROM symbols s JOIN projects p ON p.id = s.project_id"
        " JOIN files f ON f.id = s.file_id WHERE s.kind = 'Method' AND (s.name = '<Main>$'"
        f" OR (s.name = 'Main' AND s.is_static = 1)) AND {IN_REPOSITORY_SQL.format(path='f.path')}"
        " ORDER BY p.name, f.path").fetchall()
    return [{"symbol_id": r[0], "project": r[1], "file": r[2], "line": r[3]} for r in rows]


def projects(conn: sqlite3.Connection, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    folders = _projects(conn)
    web: set[str | None] = set()
    for pid, path in conn.execute(
            "SELECT DISTINCT fa.project_id, f.path FROM facts fa LEFT JOIN files f ON f.id = fa.file_id"
            f" WHERE fa.kind IN ({','.join('?' * len(WEB_FACTS))})", WEB_FACTS):
        # Razor pages and components have no project: the project whose folder holds the file.
        web.add(next((name for i, name, _ in folders if i == pid), None) if pid is not None
                else _project_of_path(folders, path))
    has_entry = {e["project"] for e in entries}
    out = []
    for name, path, framework, documents, level, symbols in conn.execute(
            "SELECT name, path, target_framework, documents, semantic_level, symbol_count FROM projects"
            " ORDER BY name"):
        dirs = [part.lower() for part in str(path).split("/")[:-1]]
        if TEST_NAME.search(name) or "tests" in dirs or "test" in dirs:
            role = "test"
        elif name in web:
            role = "web"
        elif name in has_entry:
            role = "app"
        else:
            role = "library"
        out.append({"name": name, "role": role, "path": path, "target_framework": framework,
                    "documents": documents, "symbols": symbols, "semantic_level": level})
    return out


def surface_counts(conn: sqlite3.Connection) -> dict[str, int]:
    facts: dict[str, set[str]] = defaultdict(set)
    registrations = 0
    for kind, key, path in conn.execute(
            "SELECT fa.kind, fa.key, f.path FROM facts fa LEFT JOIN files f ON f.id = fa.file_id"
            " WHERE fa.kind IN ('Config', 'DbTable', 'DiRegistration')"
            " AND NOT (fa.kind = 'DbTable' AND fa.detail LIKE '%\"object\":\"procedure\"%')"):
        if kind == "DiRegistration":
            registrations += 1
        elif not (kind == "DbTable" and is_migration_file(path)):
            facts[kind].add(key.lower() if kind == "DbTable" else key)
    return {"endpoints": endpoints(conn, None, None).total, "config_keys": len(facts["Config"]),
            "db_tables": len(facts["DbTable"]), "di_registrations": registrations}


def central_types(conn: sqlite3.Connection, limit: int) -> list[dict[str, Any]]:
    """The solution's types referenced by the most other types (a reference to a member counts for its type)."""
    ranked = memo(conn, "central_types", lambda: _central(conn))
    return [dict(t) for t in ranked[:limit]]


def _central(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    pairs = conn.execute("SELECT target_key, from_key FROM refs WHERE target_key IS NOT NULL AND from_key IS NOT NULL"
                         " GROUP BY target_key, from_key").fetchall()
    names = ids_of(conn, {k for pair in pairs for k in pair})
    type_of = {key: _type_of(name) for key, name in names.items()}  # once per symbol, not once per pair
    users: dict[str, set[str]] = defaultdict(set)
    for target, source in pairs:
        target_type, source_type = type_of.get(target, ""), type_of.get(source, "")
        if target_type != source_type:
            users[target_type].add(source_type)
    declared = {r[0]: r for r in conn.execute(
        f"SELECT s.symbol_id, s.kind, f.path, s.line, p.name FROM symbols s LEFT JOIN files f ON f.id = s.file_id"
        f" JOIN projects p ON p.id = s.project_id WHERE s.kind IN ({','.join('?' * len(TYPE_KINDS))})", TYPE_KINDS)}
    counted = Counter({t: len(u) for t, u in users.items() if t in declared})
    return [{"symbol_id": t, "kind": declared[t][1], "used_by_types": n, "file": declared[t][2],
             "line": declared[t][3], "project": declared[t][4]}
            for t, n in sorted(counted.items(), key=lambda tn: (-tn[1], tn[0]))]
