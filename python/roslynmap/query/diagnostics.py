"""diagnostics_list: the compiler errors and warnings the index recorded, and what a workspace's edits changed.

The bridge stores every error and up to 100 warnings per document (nullable analysis is off during
extraction, so nullable warnings are never among them). A workspace overlay re-extracts the edited files
and the files depending on a changed declaration (`rebound`), so their diagnostics are those of the
edited solution; every other file keeps the baseline's. "New" compares the overlay's rows with the
baseline's by file, severity, code and message (not line: an edit above a diagnostic moves it).

Errors that come from the machine rather than the code are counted apart, not listed, unless a project or
code is asked for: every diagnostic of a syntax_only project (no core library: each `object` is a CS0518),
and the missing-reference codes (a type or namespace not found) of a partial one. bitwarden/server held
321,000 of them against a few hundred of its code's own. A partial project's other errors are listed, after
those of projects that compiled in full: a type that did not resolve makes a member call on it an error too.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from roslynmap.query.sql import in_chunks
from roslynmap.store.overlay import is_overlay

SEVERITIES = ("error", "warning")
COLUMNS = ("SELECT x.severity, x.code, x.message, f.path, x.line, x.col, p.name FROM {table} x"
           " LEFT JOIN files f ON f.id = x.file_id LEFT JOIN projects p ON p.id = x.project_id")
Key = tuple[str, str, str, str]  # file, severity, code, message


@dataclass
class Filters:
    project: str | None = None
    file_prefix: str | None = None
    severity: str | None = None
    code: str | None = None

    def keep(self, item: dict[str, Any]) -> bool:
        return (self.project is None or item["project"] == self.project) \
            and (self.file_prefix is None or (item["file"] or "").startswith(self.file_prefix)) \
            and (self.severity is None or item["severity"] == self.severity) \
            and (self.code is None or item["code"].upper() == self.code.upper())


@dataclass
class Diagnostics:
    items: list[dict[str, Any]]  # filtered, errors first, then by file and line
    total: int
    by_severity: dict[str, int]
    by_code: list[dict[str, Any]]
    by_file: list[dict[str, Any]]
    fixed: list[dict[str, Any]] = field(default_factory=list)  # since="baseline": baseline rows gone
    unresolved: Unresolved | None = None  # the errors of missing references, counted apart
    partial_errors: int = 0  # of `items`' errors, those in partial projects (listed after the others)


@dataclass(frozen=True)
class UnresolvedProject:
    project: str
    semantic_level: str
    count: int


@dataclass(frozen=True)
class Unresolved:
    """Diagnostics left out of a listing because they come from references that did not resolve."""
    errors: int
    warnings: int
    projects: list[UnresolvedProject]  # most first


def _from_missing_references(conn: sqlite3.Connection) -> tuple[str, tuple[Any, ...]]:
    """The SQL condition (over `x` and `p` of COLUMNS) of a diagnostic that missing references explain."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'missing_reference_codes'").fetchone()
    codes: list[str] = json.loads(row[0]) if row else []
    marks = ",".join("?" * len(codes)) or "NULL"
    # Never NULL (a row with no project or code stays listed): NOT over a NULL would drop it from both sides.
    level = "coalesce(p.semantic_level, '')"
    return (f"({level} = 'syntax_only' OR ({level} = 'partial' AND coalesce(x.code, '') IN ({marks})))",
            tuple(codes))


def _unresolved(conn: sqlite3.Connection, condition: str, args: tuple[Any, ...], filters: Filters) -> Unresolved | None:
    """Counts of what `condition` leaves out of a listing, within the file and severity filters."""
    condition += " AND x.severity IN ('error', 'warning')"
    if filters.file_prefix:
        condition += " AND substr(f.path, 1, ?) = ?"
        args += (len(filters.file_prefix), filters.file_prefix)
    if filters.severity:
        condition += " AND x.severity = ?"
        args += (filters.severity,)
    counts = conn.execute(
        "SELECT p.name, p.semantic_level, x.severity, count(*) FROM diagnostics x LEFT JOIN projects p"
        f" ON p.id = x.project_id LEFT JOIN files f ON f.id = x.file_id WHERE {condition}"
        " GROUP BY p.name, p.semantic_level, x.severity", args).fetchall()
    if not counts:
        return None
    per_project: Counter[tuple[str, str]] = Counter()
    for name, level, _, count in counts:
        per_project[(name, level)] += count
    return Unresolved(sum(c for *_, severity, c in counts if severity == "error"),
                      sum(c for *_, severity, c in counts if severity == "warning"),
                      [UnresolvedProject(name, level, count)
                       for (name, level), count in sorted(per_project.items(), key=lambda pc: (-pc[1], pc[0]))])


def _rows(conn: sqlite3.Connection, table: str, where: str = "", args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    return [{"severity": r[0], "code": r[1], "message": r[2], "file": r[3], "line": r[4], "col": r[5],
             "project": r[6]}
            for r in conn.execute(COLUMNS.format(table=table) + where, args)
            if r[0] in SEVERITIES]



def _unmatched(rows: list[dict[str, Any]], others: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of `rows` (in file order) that no row of `others` matches by key, counting duplicates."""
    left = Counter(_key(i) for i in others)
    out = []
    for item in sorted(rows, key=_order):
        key = _key(item)
        if left[key] > 0:
            left[key] -= 1
        else:
            out.append(item)
    return out

def _key(item: dict[str, Any]) -> Key:
    return item["file"] or "", item["severity"], item["code"], item["message"]


def _order(item: dict[str, Any]) -> tuple[Any, ...]:
    return SEVERITIES.index(item["severity"]), item["file"] or "", item["line"] or 0, item["col"] or 0


def _summarize(items: list[dict[str, Any]]) -> tuple[dict[str, int], list[dict[str, Any]], list[dict[str, Any]]]:
    severity = Counter(i["severity"] for i in items)
    codes = Counter(i["code"] for i in items)
    files = Counter(i["file"] for i in items)
    return ({s: severity[s] for s in SEVERITIES if severity[s]},
            [{"code": c, "count": n} for c, n in sorted(codes.items(), key=lambda cn: (-cn[1], cn[0]))],
            [{"file": f, "count": n} for f, n in sorted(files.items(), key=lambda fn: (-fn[1], fn[0] or ""))])


def listing(conn: sqlite3.Connection, filters: Filters, since_baseline: bool = False) -> Diagnostics:
    """Every recorded diagnostic matching `filters`; with `since_baseline` (a workspace), only those the
    workspace's edits introduced, and in `fixed` those they removed."""
    if since_baseline and is_overlay(conn):
        # Only the files the overlay replaces can differ from the baseline.
        replaced = "WHERE x.file_id IN (SELECT file_id FROM ov.overlay_files)"
        now = _rows(conn, "ov.diagnostics")
        before = _rows(conn, "main.diagnostics", " " + replaced)
        new, fixed = _unmatched(now, before), _unmatched(before, now)
        items = [i for i in new if filters.keep(i)]
        fixed = [i for i in fixed if filters.keep(i)]
        unresolved, partial_errors = None, 0
    elif since_baseline:
        items, fixed, unresolved, partial_errors = [], [], None, 0
    else:
        # Asked for a project or a code, the listing holds everything of it; else missing references are counted.
        condition, args = _from_missing_references(conn)
        scoped = filters.project is not None or filters.code is not None
        rows = _rows(conn, "diagnostics") if scoped else _rows(conn, "diagnostics", f" WHERE NOT {condition}", args)
        partial = {name for (name,) in conn.execute("SELECT name FROM projects WHERE semantic_level = 'partial'")}
        items = sorted((i for i in rows if filters.keep(i)),
                       key=lambda i: (SEVERITIES.index(i["severity"]), i["project"] in partial, *_order(i)[1:]))
        fixed = []
        unresolved = None if scoped else _unresolved(conn, condition, args, filters)
        partial_errors = sum(1 for i in items if i["severity"] == "error" and i["project"] in partial)
    severity, codes, files = _summarize(items)
    return Diagnostics(items, len(items), severity, codes, files, fixed, unresolved, partial_errors)


def errors_at(conn: sqlite3.Connection, paths: set[str]) -> dict[str, list[int]]:
    """The lines holding an error, per file (for the given paths)."""
    if not paths:
        return {}
    out: dict[str, list[int]] = {}
    for path, line in in_chunks(conn, "SELECT f.path, x.line FROM diagnostics x JOIN files f ON f.id = x.file_id"
                                      " WHERE x.severity = 'error' AND f.path IN ({marks})", sorted(paths)):
        out.setdefault(path, []).append(int(line or 0))
    return out


def member_spans(conn: sqlite3.Connection, symbol_ids: set[str]) -> dict[str, tuple[str, int, int]]:
    """(file, first line, last line) of each declared member (its first declaration when partial)."""
    out: dict[str, tuple[str, int, int]] = {}
    for symbol_id, path, line, end in in_chunks(
            conn, "SELECT s.symbol_id, f.path, s.line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id"
                  " WHERE s.symbol_id IN ({marks})", sorted(symbol_ids)):
        out.setdefault(symbol_id, (path, int(line or 0), int(end or line or 0)))
    return out
