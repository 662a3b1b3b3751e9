"""repo_overview: the first call on an unknown codebase, from the index alone.

Projects with a role decided from evidence the index holds: `test` (the name ends in Test(s)/Spec(s),
or it lives under a tests/ folder), `web` (it declares routes, Razor pages or middleware, and is no class
library without an entry point: ServiceDefaults mapping health checks is a library), `app` (it has an entry
point: top-level statements or a static Main), else `library`. Then the entry points,
the surface counts, and the most central types: the types referenced (themselves or their members) by
the most other types of the solution.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import orjson

from roslynmap.model.readable import IN_REPOSITORY_SQL
from roslynmap.query.keys import ids_of
from roslynmap.query.markup import ConfigRead
from roslynmap.query.projectrefs import is_test_project, project_folders, project_of_path
from roslynmap.query.sql import in_chunks, memo
from roslynmap.query.surfaces import (
    config_keys,
    db_tables,
    di_registrations,
    endpoints,
)
from roslynmap.store import central

WEB_FACTS = ("Route", "RazorPage", "RazorComponent", "Middleware", "ControllerAction")


def entry_points(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT s.symbol_id, p.name, f.path, s.line FROM symbols s JOIN projects p ON p.id = s.project_id"
        " JOIN files f ON f.id = s.file_id WHERE s.kind = 'Method' AND (s.name = '<Main>$'"
        f" OR (s.name = 'Main' AND s.is_static = 1)) AND {IN_REPOSITORY_SQL.format(path='f.path')}"
        " ORDER BY p.name, f.path").fetchall()
    entries = [{"symbol_id": r[0], "project": r[1], "file": r[2], "line": r[3]} for r in rows]
    return entries + function_entry_points(conn)


def function_entry_points(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Azure Functions (bridge FunctionsFacts): the host runs each when its trigger fires; a function app is a class
    library with no Main (trading-app-functions-dotnet: "7 libraries, 0 entry points" for 71 functions)."""
    rows = conn.execute(
        "SELECT fa.symbol_id, p.name, f.path, fa.line, fa.key, fa.detail FROM facts fa JOIN projects p ON p.id ="
        " fa.project_id JOIN files f ON f.id = fa.file_id WHERE fa.kind = 'FunctionTrigger' ORDER BY p.name, f.path,"
        " fa.line").fetchall()
    return [{"symbol_id": r[0], "project": r[1], "file": r[2], "line": r[3], "function": r[4],
             "trigger": orjson.loads(r[5]).get("trigger")} for r in rows]


def projects(conn: sqlite3.Connection, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    folders = project_folders(conn)
    web: set[str | None] = set()
    for pid, path in conn.execute(
            "SELECT DISTINCT fa.project_id, f.path FROM facts fa LEFT JOIN files f ON f.id = fa.file_id"
            f" WHERE fa.kind IN ({','.join('?' * len(WEB_FACTS))})", WEB_FACTS):
        # Razor pages and components have no project: the project whose folder holds the file.
        web.add(next((name for i, name, _ in folders if i == pid), None) if pid is not None
                else project_of_path(folders, path))
    has_entry = {e["project"] for e in entries}
    out = []
    for name, path, framework, documents, level, symbols, output_kind in conn.execute(
            "SELECT name, path, target_framework, documents, semantic_level, symbol_count, output_kind FROM projects"
            " ORDER BY name"):
        if is_test_project(str(name), str(path)):
            role = "test"
        elif name in web and not (output_kind == "Library" and name not in has_entry):
            # A library mapping routes or middleware for its hosts (Aspire's ServiceDefaults `MapDefaultEndpoints`,
            # a Razor class library) is a library: the hosts are the web projects.
            role = "web"
        elif name in has_entry:
            role = "app"
        else:
            role = "library"
        out.append({"name": name, "role": role, "path": path, "target_framework": framework,
                    "documents": documents, "symbols": symbols, "semantic_level": level})
    return out


def surface_counts(conn: sqlite3.Connection, markup_reads: Sequence[ConfigRead] = ()) -> dict[str, int]:
    """The totals the list tools answer with (surfaces_list_config_keys, surfaces_list_db_tables, surfaces_list
    kind=di): counted from facts on their own, the overview said 17 tables and 31 keys where the lists said 86
    and 42 (SimplCommerce's ToTable names, appsettings definitions)."""
    return {"endpoints": endpoints(conn, None, None).total,
            "config_keys": config_keys(conn, None, None, None, markup_reads).total,
            "db_tables": db_tables(conn, None).total,
            "di_registrations": di_registrations(conn, None, None, None, None).total}


def central_types(conn: sqlite3.Connection, limit: int, baseline: bool) -> list[dict[str, Any]]:
    """The solution's types referenced by the most other types (a reference to a member counts for its type):
    a baseline's ranking as its writer stored it (store/central.py), else ranked now (a workspace's overlay
    changes references; a baseline from before the stored ranking)."""
    ranked = central.stored(conn, limit) if baseline else None
    if ranked is None:
        ranked = memo(conn, "central_types", lambda: central.rank(conn, lambda keys: ids_of(conn, keys)))[:limit]
    declared: dict[str, tuple[Any, ...]] = {}
    for row in in_chunks(conn, "SELECT s.symbol_id, s.kind, f.path, s.line, p.name FROM symbols s"
                               " LEFT JOIN files f ON f.id = s.file_id JOIN projects p ON p.id = s.project_id"
                               " WHERE s.symbol_id IN ({marks}) ORDER BY s.id", [t for t, _ in ranked]):
        declared[row[0]] = row  # a type several projects compile: the one written last, as before
    return [{"symbol_id": t, "kind": declared[t][1], "used_by_types": n, "file": declared[t][2],
             "line": declared[t][3], "project": declared[t][4]} for t, n in ranked]
