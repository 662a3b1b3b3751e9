"""Workspace overlays on disk: the delta database, its writer, and the merged read connection.

An overlay (`repos/<repo_id>/workspaces/<workspace_id>.db`) has the baseline's schema plus
`overlay_files(file_id, path, state)`, the files it replaces: `changed`, `added` and `deleted` (the
agent's edits) and `rebound` (unchanged files re-extracted because a symbol they reference changed).
Its rows use the baseline's file id for a path the baseline has, and ids >= OVERLAY_ID_BASE for
new files, symbols, references and facts, so merged rows never collide. Interned symbol ids work the
same way: a symbol id the baseline has keeps the baseline's key; the overlay's `ids` table holds only
the new ones, keyed from OVERLAY_ID_BASE.

Reading: `open_merged` opens the baseline read-only, attaches the overlay, and creates TEMP objects
named like the tables; temp objects shadow main ones for unqualified names, so every query runs
unchanged. Each row table becomes a view (baseline rows of files the overlay does not replace,
UNION ALL the overlay's rows). `files` and `projects` become small temp tables instead: they are
joined on the right-hand side of nearly every query, where SQLite would materialize a compound view
on every execution. `ids` is a view of both dictionaries (their keys never overlap); read it by key
or by symbol id, never join it. Full-text search needs both FTS tables: `fts_symbols_sql` merges their hits.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.kinds import TYPE_KINDS, merge_semantic_levels
from roslynmap.model.records import Batch
from roslynmap.store import levels
from roslynmap.store.names import name_terms
from roslynmap.store.reader import MemoConnection
from roslynmap.store.schema import INDEXES, SCHEMA_VERSION, TABLES
from roslynmap.store.writer import (
    INSERT_DIAGNOSTICS,
    INSERT_PARTS,
    INSERT_REFS,
    INSERT_RELATIONS,
    INSERT_SYMBOLS,
    INSERT_SYMBOLS_FTS,
    SymbolKeys,
    ref_rows,
    symbol_fts_rows,
    symbol_rows,
)

OVERLAY_ID_BASE = 1_000_000_000
OVERLAY_SCHEMA = TABLES + """
CREATE TABLE overlay_files(file_id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, state TEXT NOT NULL);
"""
STATES = ("changed", "added", "deleted", "rebound")
# Tables whose rows belong to one file: an overlay replaces them file by file.
ROW_TABLES = ("symbols", "symbol_parts", "refs", "relations", "facts", "diagnostics")
SymbolKey = tuple[str, int]  # (symbol_id, project_id)


def _uri(path: Path, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"file:{urllib.parse.quote(str(path))}?{query}"


class OverlayConnection(MemoConnection):
    """A baseline connection with an overlay attached as `ov` (see the module docstring)."""

    overlay_path: Path | None = None


def fts_symbols_sql() -> str:
    """Symbol rows (every `symbols` column, plus `score`) matching the FTS expression bound twice:
    baseline hits outside the files the overlay replaces, then the overlay's own. Used as
    `FROM (<this>) s`: a compound subquery leads the join, where SQLite can push filters into it."""
    columns = "s.id, s.symbol_id, s.stable_id, s.project_id, s.name, s.kind, s.fqn, s.signature, s.doc," \
              " s.namespace, s.container_id, s.file_id, s.line, s.col, s.end_line, s.end_col, s.visibility," \
              " s.is_static, s.arity"
    return (f"SELECT {columns}, bm25(h.symbols_fts, 10.0, 2.0, 1.0) AS score FROM main.symbols_fts h"
            " JOIN main.symbols s ON s.id = h.rowid WHERE h.symbols_fts MATCH ?"
            " AND (s.file_id IS NULL OR s.file_id NOT IN (SELECT file_id FROM ov.overlay_files))"
            f" UNION ALL SELECT {columns}, bm25(h.symbols_fts, 10.0, 2.0, 1.0) AS score FROM ov.symbols_fts h"
            " JOIN ov.symbols s ON s.id = h.rowid WHERE h.symbols_fts MATCH ?")


def is_overlay(conn: sqlite3.Connection) -> bool:
    return isinstance(conn, OverlayConnection)


def _read_meta(conn: sqlite3.Connection, schema: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in conn.execute(f"SELECT key, value FROM {schema}.meta"):
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def baseline_build_id(baseline: Path) -> str | None:
    """The build id of a baseline file; an overlay is valid only on the build it was made against."""
    conn = sqlite3.connect(_uri(baseline, mode="ro", immutable="1"), uri=True)
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'build_id'").fetchone()
        return None if row is None else str(row[0])
    finally:
        conn.close()


def read_overlay_meta(path: Path) -> dict[str, Any]:
    conn = sqlite3.connect(_uri(path, mode="ro", immutable="1"), uri=True)
    try:
        return _read_meta(conn, "main")
    finally:
        conn.close()


def _columns(conn: sqlite3.Connection, schema: str, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f"PRAGMA {schema}.table_info({table})")]


def _temp_table_ddl(conn: sqlite3.Connection, table: str) -> str:
    sql = conn.execute("SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()[0]
    return str(sql).replace(f"CREATE TABLE {table}", f"CREATE TEMP TABLE {table}", 1)


def open_readonly(path: Path) -> sqlite3.Connection:
    """A plain read-only connection (the baseline alone, where no overlay exists yet)."""
    conn = sqlite3.connect(_uri(path, mode="ro", immutable="1"), uri=True, check_same_thread=False)
    conn.execute("PRAGMA query_only=1")
    return conn


def open_merged(baseline: Path, overlay: Path, project_levels: dict[int, str] | None = None) -> OverlayConnection:
    """A read-only connection answering every query from the baseline with the overlay on top."""
    conn = sqlite3.connect(_uri(baseline, mode="ro", immutable="1"), uri=True, check_same_thread=False,
                           factory=OverlayConnection)
    try:
        conn.overlay_path = overlay
        conn.execute("ATTACH DATABASE ? AS ov", (_uri(overlay, mode="ro", immutable="1"),))
        for schema, what in (("main", f"The baseline at {baseline}"), ("ov", f"The overlay at {overlay}")):
            version = _read_meta(conn, schema).get("schema_version")
            if version != SCHEMA_VERSION:
                raise RoslynMapError(ErrorCode.INDEX_NOT_AVAILABLE,
                                     f"{what} has schema version {version}; this roslynmap reads {SCHEMA_VERSION}.",
                                     "Rebuild it: index_ensure_baseline(force=true), then index_refresh_overlay.")
        replaced = "(SELECT file_id FROM ov.overlay_files)"
        for table in ROW_TABLES:
            columns = ", ".join(_columns(conn, "main", table))
            # A GeneratedUse fact is its project's (its generated code's), not its file's: an overlay keeps the
            # baseline's, even for an edited file (the bridge computes them per project, on full indexes only).
            kept = " OR kind = 'GeneratedUse'" if table == "facts" else ""
            conn.execute(f"CREATE TEMP VIEW {table} AS SELECT {columns} FROM main.{table}"
                         f" WHERE file_id IS NULL OR file_id NOT IN {replaced}{kept}"
                         f" UNION ALL SELECT {columns} FROM ov.{table}")
        conn.execute("CREATE TEMP VIEW ids AS SELECT key, symbol_id FROM main.ids"
                     " UNION ALL SELECT key, symbol_id FROM ov.ids")
        conn.execute(_temp_table_ddl(conn, "files"))
        columns = ", ".join(_columns(conn, "main", "files"))
        conn.execute(f"INSERT INTO temp.files({columns}) SELECT {columns} FROM main.files WHERE id NOT IN {replaced}"
                     f" UNION ALL SELECT {columns} FROM ov.files")
        conn.execute(_temp_table_ddl(conn, "projects"))
        columns = ", ".join(_columns(conn, "main", "projects"))
        conn.execute(f"INSERT INTO temp.projects({columns}) SELECT {columns} FROM main.projects"
                     f" UNION ALL SELECT {columns} FROM ov.projects WHERE id NOT IN (SELECT id FROM main.projects)")
        if project_levels:
            conn.executemany("UPDATE temp.projects SET semantic_level = ? WHERE id = ?",
                             [(level, pid) for pid, level in project_levels.items()])
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA query_only=1")
    except BaseException:
        conn.close()
        raise
    return conn


# ---------------------------------------------------------------- dependency analysis (on a merged view)

Declaration = tuple[str, str, str, str, int]  # stable_id, signature, kind, visibility, is_static


def declared_in(conn: sqlite3.Connection, paths: Iterable[str], schema: str = "") -> dict[SymbolKey, Declaration]:
    """The symbols (and their binding-relevant shape) declared in these files. `schema` "main." reads the
    baseline alone through a merged connection."""
    wanted = sorted(set(paths))
    if not wanted:
        return {}
    files = f"{schema}files" if schema else "files"
    rows = conn.execute(
        f"SELECT s.symbol_id, s.project_id, s.stable_id, s.signature, s.kind, s.visibility, s.is_static"
        f" FROM {schema}symbols s JOIN {files} f ON f.id = s.file_id"
        f" WHERE f.path IN (SELECT value FROM json_each(?))", (json.dumps(wanted),))
    return {(r[0], r[1]): (r[2], r[3] or "", r[4], r[5] or "", int(r[6] or 0)) for r in rows}


def declared_in_batch(batch: Batch, project_map: dict[int, int]) -> dict[SymbolKey, Declaration]:
    return {(s.symbol_id, project_map.get(s.project, s.project)):
            (s.stable_id, s.signature or "", s.kind, s.visibility or "", int(bool(s.is_static))) for s in batch.symbols}


def changed_symbols(old: dict[SymbolKey, Declaration], new: dict[SymbolKey, Declaration]) -> set[str]:
    """Ids whose declaration disappeared or whose shape (stable id, signature, kind, visibility,
    static-ness) changed: references to them elsewhere may now bind differently."""
    return {key[0] for key, shape in old.items() if new.get(key) != shape}


def dependent_files(conn: sqlite3.Connection, changed_ids: set[str], added_names: set[str]) -> set[str]:
    """Files whose extraction depends on these symbols: those referencing a changed id, those holding
    another part of it (partial declarations), and those with unresolved references named like a newly
    declared symbol (they may bind now)."""
    out: set[str] = set()
    if changed_ids:
        ids = json.dumps(sorted(changed_ids))
        for sql in ("SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.target_key IN"
                    " (SELECT key FROM ids WHERE symbol_id IN (SELECT value FROM json_each(?)))",
                    "SELECT DISTINCT f.path FROM symbol_parts sp JOIN files f ON f.id = sp.file_id"
                    " WHERE sp.symbol_id IN (SELECT value FROM json_each(?))"):
            out.update(row[0] for row in conn.execute(sql, (ids,)))
    if added_names:
        out.update(row[0] for row in conn.execute(
            "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.target_key IS NULL AND r.target_name IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(added_names)),)))
    return out


# A member added here may win overload resolution or name lookup for calls that already bind elsewhere.
Member = tuple[str, str, bool]  # container id, name, is an extension method
HIERARCHY_DEPTH = 4


def added_members(batch: Batch, added_ids: set[str]) -> set[Member]:
    """Container, name and extension-ness of the members (not types) among `added_ids`."""
    return {(s.container, s.name, "(this " in (s.signature or "")) for s in batch.symbols
            if s.symbol_id in added_ids and s.container and s.kind not in TYPE_KINDS}


def _hierarchy(conn: sqlite3.Connection, type_id: str) -> set[str]:
    """The type, its base types and interfaces, and the types deriving from it (HIERARCHY_DEPTH levels each)."""
    out = {type_id}
    for src, dst in (("type_id", "related_id"), ("related_id", "type_id")):
        frontier = {type_id}
        for _ in range(HIERARCHY_DEPTH):
            rows = conn.execute(f"SELECT DISTINCT {dst} FROM relations WHERE {src} IN (SELECT value FROM json_each(?))"
                                f" AND {dst} IS NOT NULL", (json.dumps(sorted(frontier)),)).fetchall()
            frontier = {r[0] for r in rows} - out
            if not frontier:
                break
            out |= frontier
    return out


def overload_dependents(conn: sqlite3.Connection, members: set[Member]) -> set[str]:
    """Files referencing a member named like an added one in the same type hierarchy (or, for an extension
    method, any extension method of that name): a new overload or a hiding member may bind there now."""
    out: set[str] = set()
    for container, name, extension in sorted(members):
        siblings = "s.container_id IN (SELECT value FROM json_each(?))"
        args: list[Any] = [name, json.dumps(sorted(_hierarchy(conn, container)))]
        if extension:
            siblings = f"({siblings} OR s.signature LIKE '%(this %')"
        out.update(row[0] for row in conn.execute(
            "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.target_key IN"
            " (SELECT key FROM ids WHERE symbol_id IN"
            f" (SELECT s.symbol_id FROM symbols s WHERE s.name = ? AND {siblings}))", args))
    return out


def project_level(base_level: str | None, missing_reference_errors: int, base_reason: str | None = None) -> str:
    """The bridge's rule (ProjectEntry.SemanticLevel, store/levels.py) over the merged diagnostics: a project
    without a semantic model stays syntax_only; missing-reference errors, or packages the baseline's restore left
    unresolved (said in its reason), make it partial; else full."""
    return levels.level_and_reason(base_level, base_reason, missing_reference_errors, None)[0]


# ---------------------------------------------------------------- writing

class OverlayWriter:
    """Builds one overlay into `temp_path`: rows carried over from the previous overlay for files it
    keeps, plus freshly extracted batches. The caller renames the finished file into place."""

    def __init__(self, temp_path: Path, baseline: Path, previous: Path | None) -> None:
        self.temp_path = temp_path
        temp_path.unlink(missing_ok=True)
        self.db = sqlite3.connect(temp_path, isolation_level=None)
        self.db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY;")
        self.db.executescript(OVERLAY_SCHEMA)
        self.db.execute("ATTACH DATABASE ? AS base", (_uri(baseline, mode="ro", immutable="1"),))
        self.has_previous = previous is not None and previous.exists()
        if self.has_previous:
            assert previous is not None
            self.db.execute("ATTACH DATABASE ? AS prev", (_uri(previous, mode="ro", immutable="1"),))
        self.db.execute("BEGIN")
        self._file_ids: dict[str, int] = {}
        self._next_file = self._max_id("files", "id", "overlay_files", "file_id")
        self._next = {t: self._max_id(t, "id") for t in ("symbols", "refs", "facts")}
        self.states: dict[str, str] = {}
        self.keys = SymbolKeys(self.db, self._max_id("ids", "key") + 1, self._baseline_keys)
        if self.has_previous:  # every key the previous overlay allocated stays valid for rows carried over
            self.db.execute("INSERT INTO ids SELECT key, symbol_id FROM prev.ids")
            self.keys.keys.update(self.db.execute("SELECT symbol_id, key FROM ids"))

    def _baseline_keys(self, symbol_ids: list[str]) -> list[tuple[str, int]]:
        return self.db.execute("SELECT symbol_id, key FROM base.ids WHERE symbol_id IN"
                               " (SELECT value FROM json_each(?))", (json.dumps(symbol_ids),)).fetchall()

    def _max_id(self, table: str, column: str, *more: str) -> int:
        best = OVERLAY_ID_BASE - 1
        if self.has_previous:
            pairs = [(table, column), *zip(more[::2], more[1::2], strict=True)]
            for name, col in pairs:
                value = self.db.execute(f"SELECT max({col}) FROM prev.{name}").fetchone()[0]
                if value is not None and value > best:
                    best = int(value)
        return best

    def _alloc(self, table: str, count: int) -> int:
        start = self._next[table] + 1
        self._next[table] += count
        return start

    def file_id(self, path: str) -> int:
        """The baseline's id for a path it has; else the previous overlay's; else a new one."""
        known = self._file_ids.get(path)
        if known is not None:
            return known
        row = self.db.execute("SELECT id FROM base.files WHERE path = ?", (path,)).fetchone()
        if row is None and self.has_previous:
            row = self.db.execute("SELECT file_id FROM prev.overlay_files WHERE path = ?", (path,)).fetchone()
        if row is not None:
            file_id = int(row[0])
        else:
            self._next_file += 1
            file_id = self._next_file
        self._file_ids[path] = file_id
        return file_id

    def carry(self, paths: Iterable[str]) -> None:
        """Copies the previous overlay's entries and rows for these paths unchanged."""
        if not self.has_previous:
            return
        wanted = json.dumps(sorted(set(paths)))
        rows = self.db.execute("SELECT file_id, path, state FROM prev.overlay_files WHERE path IN"
                               " (SELECT value FROM json_each(?))", (wanted,)).fetchall()
        if not rows:
            return
        for file_id, path, state in rows:
            self._file_ids[path] = file_id
            self.states[path] = state
        self.db.executemany("INSERT INTO overlay_files(file_id, path, state) VALUES (?,?,?)", rows)
        ids = json.dumps([r[0] for r in rows])
        keep = "file_id IN (SELECT value FROM json_each(?))"
        self.db.execute("INSERT INTO files SELECT * FROM prev.files WHERE id IN (SELECT value FROM json_each(?))",
                        (ids,))
        for table in ROW_TABLES:
            self.db.execute(f"INSERT INTO {table} SELECT * FROM prev.{table} WHERE {keep}", (ids,))
        self.db.executemany(
            "INSERT INTO symbols_fts(rowid, name_terms, signature, doc) VALUES (?,?,?,?)",
            [(r[0], name_terms(r[1]), r[2] or "", r[3] or "") for r in self.db.execute(
                f"SELECT id, name, signature, doc FROM prev.symbols WHERE {keep}", (ids,))])
        self.db.execute("INSERT OR IGNORE INTO projects SELECT * FROM prev.projects")

    def mark(self, path: str, state: str) -> None:
        """Records that the overlay replaces `path` (its rows, if any, come from add_batch)."""
        assert state in STATES, state
        file_id = self.file_id(path)
        self.states[path] = state
        self.db.execute("INSERT OR REPLACE INTO overlay_files(file_id, path, state) VALUES (?,?,?)",
                        (file_id, path, state))

    def add_projects(self, projects: Sequence[dict[str, Any]], project_map: dict[int, int]) -> None:
        """Projects of the overlay session the baseline does not have (mapped to new ids)."""
        rows = [(project_map[p["index"]], p["name"], p["path"], p.get("target_framework"),
                 json.dumps(p.get("target_frameworks") or []), p.get("documents", 0), int(bool(p.get("restored"))),
                 json.dumps(p.get("load_errors") or []), "partial")
                for p in projects if project_map[p["index"]] >= OVERLAY_ID_BASE]
        self.db.executemany(
            "INSERT OR IGNORE INTO projects(id, name, path, target_framework, target_frameworks, documents, restored,"
            " load_errors, semantic_level) VALUES (?,?,?,?,?,?,?,?,?)", rows)

    def add_batch(self, batch: Batch, states: dict[str, str], project_map: dict[int, int]) -> None:
        """A bridge batch (docs/architecture.md); `states` gives each file's overlay state."""

        def fid(path: str | None) -> int | None:  # a project-level diagnostic has no file (as in the baseline)
            return None if path is None else self.file_id(path)

        def pid(index: int) -> int:
            return project_map.get(index, index)

        for path, project, line_count in batch.files:
            self.mark(path, states.get(path, "rebound"))
            self.db.execute(
                "INSERT INTO files(id, path, project_id, line_count) VALUES (?,?,?,?) ON CONFLICT(id) DO UPDATE"
                " SET project_id=excluded.project_id, line_count=excluded.line_count",
                (self.file_id(path), path, pid(project), line_count))
        symbols = batch.symbols
        start = self._alloc("symbols", len(symbols))
        self.db.executemany(INSERT_SYMBOLS, symbol_rows(symbols, start, fid, pid))
        self.db.executemany(INSERT_SYMBOLS_FTS, symbol_fts_rows(symbols, start))
        self.db.executemany(INSERT_PARTS, [(sid, pid(proj), fid(f), line, col, end)
                                           for sid, proj, f, line, col, end in batch.locations])
        refs = batch.refs
        self.db.executemany(INSERT_REFS, ref_rows(refs, self.keys, fid, pid, self._alloc("refs", len(refs))))
        self.db.executemany(INSERT_RELATIONS, [r._replace(project=pid(r.project)) for r in batch.relations])
        facts = batch.facts
        start = self._alloc("facts", len(facts))
        self.db.executemany(
            "INSERT INTO facts(id, kind, symbol_id, project_id, file_id, line, col, confidence, key, detail)"
            " VALUES (?,?,?,?,?,?,?,?,?,?)",
            [(start + i, f.kind, f.symbol_id, None if f.project is None else pid(f.project), fid(f.file), f.line,
              f.col, f.confidence, f.key, f.detail) for i, f in enumerate(facts)])
        self.db.executemany(INSERT_DIAGNOSTICS, [(pid(d.project), fid(d.file), d.line, d.col, d.severity, d.code,
                                                  d.message) for d in batch.diagnostics])

    def semantic_levels(self) -> dict[int, str]:
        """Per project: the bridge's level rule applied to the merged diagnostics (baseline rows of files
        the overlay does not replace, plus the overlay's)."""
        # The bridge's "type, namespace or assembly not found" codes, as the baseline recorded them.
        row = self.db.execute("SELECT value FROM base.meta WHERE key = 'missing_reference_codes'").fetchone()
        codes: list[str] = json.loads(row[0]) if row else []
        missing = dict(self.db.execute(
            "SELECT project_id, count(*) FROM (SELECT project_id, severity, code FROM base.diagnostics WHERE"
            " file_id IS NULL OR file_id NOT IN (SELECT file_id FROM main.overlay_files)"
            " UNION ALL SELECT project_id, severity, code FROM main.diagnostics)"
            f" WHERE severity = 'error' AND code IN ({','.join('?' * len(codes))}) GROUP BY project_id",
            codes).fetchall())
        found: dict[int, str] = {}
        for pid, level, reason in self.db.execute(
                "SELECT id, semantic_level, level_reason FROM base.projects UNION ALL"
                " SELECT id, semantic_level, NULL FROM main.projects"):
            found[int(pid)] = project_level(level, int(missing.get(pid, 0)), reason)
        return found

    def finish(self, meta: dict[str, Any]) -> dict[str, Any]:
        """Indexes, relation file ids, semantic levels and meta; returns the meta written."""
        # A relation belongs to the file declaring its type (as in the baseline).
        self.db.execute(
            "UPDATE relations SET file_id = (SELECT s.file_id FROM symbols s WHERE s.symbol_id = relations.type_id"
            " AND s.project_id = relations.project_id LIMIT 1) WHERE file_id IS NULL")
        levels = self.semantic_levels()
        counts = {state: 0 for state in STATES}
        for state in self.states.values():
            counts[state] += 1
        build = self.db.execute("SELECT value FROM base.meta WHERE key = 'build_id'").fetchone()
        meta = {**meta, "schema_version": SCHEMA_VERSION, "baseline_build_id": build[0] if build else None,
                "project_levels": {str(k): v for k, v in levels.items()},
                "semantic_level": merge_semantic_levels(list(levels.values())), "file_counts": counts,
                "written_at": time.time()}
        self.db.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?,?)",
                            [(k, v if isinstance(v, str) else json.dumps(v)) for k, v in meta.items()])
        self.db.execute("COMMIT")
        self.db.executescript(INDEXES)
        self.db.execute("DETACH DATABASE base")
        if self.has_previous:
            self.db.execute("DETACH DATABASE prev")
        self.db.close()
        return meta

    def abandon(self) -> None:
        try:
            self.db.close()
        finally:
            self.temp_path.unlink(missing_ok=True)


def publish(temp_path: Path, final_path: Path) -> None:
    """Atomic: a reader opens either the previous overlay or the new one, never a half-written file.
    No fsync: an overlay is a cache of the working tree that the next refresh rebuilds."""
    os.replace(temp_path, final_path)
