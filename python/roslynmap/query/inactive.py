"""Code inactive in the indexed build (InactiveCode facts: `#if NET46` branches of a multi-targeted library
indexed for net10.0, `#if !HAVE_LINQ` in Newtonsoft.Json's LinqBridge.cs). Its declarations are not symbols;
the outline, text search and an empty symbol search say where such code is and what it declares; the names it
uses keep a member named only there out of symbols_unused, and refs_find says where they are."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import orjson

from roslynmap.query import projectrefs


@dataclass(frozen=True)
class InactiveRegion:
    file: str
    line: int
    end_line: int
    condition: str  # the directive of the branch: `#if NET46`, `#else of #if DEBUG`
    declares: tuple[str, ...]  # `class Enumerable:46`, `method Enumerable.Where:80` (the first 500)
    declared: int  # how many it declares
    names: frozenset[str] = frozenset()  # identifiers its text uses (the first 200): uses no reference records

    def holds(self, line: int) -> bool:
        return self.line <= line <= self.end_line


def regions(conn: sqlite3.Connection, path: str | None = None) -> list[InactiveRegion]:
    """The inactive branches of one file (every file when path is None), in source order."""
    sql = ("SELECT f.path, fa.line, fa.key, fa.detail FROM facts fa JOIN files f ON f.id = fa.file_id "
           "WHERE fa.kind = 'InactiveCode'" + (" AND f.path = ?" if path else "") + " ORDER BY f.path, fa.line")
    out = []
    seen: set[tuple[str, int, str]] = set()  # a file compiled into several projects has its facts once per project
    for file, line, key, detail in conn.execute(sql, (path,) if path else ()):
        if (str(file), int(line), str(key)) in seen:
            continue
        seen.add((str(file), int(line), str(key)))
        parsed = orjson.loads(detail or "{}")
        declares = tuple(str(d) for d in parsed.get("declares", []))
        out.append(InactiveRegion(str(file), int(line), int(parsed.get("end_line", line)), str(key), declares,
                                  int(parsed.get("declared", len(declares))),
                                  frozenset(str(n) for n in parsed.get("names", []))))
    return out


def declaring(conn: sqlite3.Connection, word: str, limit: int = 5) -> list[tuple[InactiveRegion, str]]:
    """Inactive declarations whose name holds `word` (case-insensitive): (region, `kind Name:line`)."""
    needle = word.lower()
    found = [(r, d) for r in regions(conn) for d in r.declares if needle in d.split(" ", 1)[-1].lower()]
    return found[:limit]


def naming(conn: sqlite3.Connection, name: str) -> list[InactiveRegion]:
    """The inactive branches whose text uses `name` (a member called or accessed): a call in `#if ENTITY_FRAMEWORK` of
    a test project indexed for net10.0 is in none of the references. Only the files of facts spelling it are read."""
    rows = conn.execute("SELECT DISTINCT f.path FROM facts fa JOIN files f ON f.id = fa.file_id WHERE fa.kind ="
                        " 'InactiveCode' AND fa.detail LIKE ?", (f'%"{name}"%',)).fetchall()
    return [r for path, in rows for r in regions(conn, str(path)) if name in r.names]


def names_by_project(conn: sqlite3.Connection) -> dict[int, frozenset[str]]:
    """Project id -> the members inactive branches use where that project's code is seen: its own files' branches and
    those of the projects referencing it, directly or not (a test project's `#if` calls a library's member; a branch
    of one project does not use a same-named member of an unrelated one)."""
    own: dict[int, set[str]] = {}
    for project, detail in conn.execute("SELECT project_id, detail FROM facts WHERE kind = 'InactiveCode'"
                                        " AND detail LIKE '%\"names\"%'"):
        if project is not None:
            own.setdefault(int(project), set()).update(str(n) for n in orjson.loads(detail or "{}").get("names", []))
    seen: dict[int, set[str]] = {}
    edges = projectrefs.project_references(conn)
    for project, names in own.items():
        for reached in {project} | projectrefs.referenced(edges, [project]):
            seen.setdefault(reached, set()).update(names)
    return {project: frozenset(names) for project, names in seen.items()}
