"""Writes one baseline: bulk inserts in a single transaction, indexes after, atomic publish."""

from __future__ import annotations

import json
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, cast

from roslynmap.model.records import Batch, PackageRecord, RefRecord, SymbolRecord
from roslynmap.store import central
from roslynmap.store.names import name_terms
from roslynmap.store.schema import INDEXES, SCHEMA_VERSION, TABLES

KnownKeys = Callable[[list[str]], Iterable[tuple[str, int]]]


class SymbolKeys:
    """Interns symbol ids into the `ids` table: each id gets one integer key, new keys count up from
    `first_key`. `known` finds keys allocated elsewhere (an overlay reuses its baseline's keys)."""

    def __init__(self, db: sqlite3.Connection, first_key: int, known: KnownKeys | None = None) -> None:
        self.db, self._next, self._known = db, first_key, known
        self.keys: dict[str, int] = {}

    def intern(self, symbol_ids: Iterable[str | None]) -> dict[str, int]:
        """Keys for these ids (allocating what is new); returns the whole id -> key map."""
        missing = {s for s in symbol_ids if s is not None and s not in self.keys}
        if missing and self._known is not None:
            for symbol_id, key in self._known(sorted(missing)):
                self.keys[symbol_id] = key
                missing.discard(symbol_id)
        rows = [(self._next + i, s) for i, s in enumerate(sorted(missing))]
        self.db.executemany("INSERT INTO ids(key, symbol_id) VALUES (?,?)", rows)
        self.keys.update((s, k) for k, s in rows)
        self._next += len(rows)
        return self.keys


INSERT_REFS = ("INSERT INTO refs(id, target_key, target_name, target_kind, from_key, project_id, file_id, line,"
               " col, end_col, kind, receiver, candidates) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")


def ref_rows(refs: Sequence[RefRecord], keys: SymbolKeys, file_id: Callable[[Any], int | None],
             project_id: Callable[[int], int], first_id: int | None = None) -> list[tuple[Any, ...]]:
    """Bridge ref records as INSERT_REFS rows with interned keys; row ids count from `first_id` (None: SQLite's).
    The hot path of a baseline write: records are unpacked, not read field by field."""
    # dict.get of None is None: one C call per id, no branch (the ids table never holds None)
    key: Callable[[str | None], int | None] = cast(Any, keys.intern(x for r in refs for x in (r.target, r.source))).get
    start = 0 if first_id is None else first_id
    return [(None if first_id is None else start + i, key(target), name, target_kind, key(source), project_id(project),
             file_id(file), line, col, end_col, kind, receiver, _candidates(candidates))
            for i, (target, name, target_kind, source, project, file, line, col, end_col, kind, receiver, candidates)
            in enumerate(refs)]


def _candidates(found: list[str] | None) -> str | None:
    """The JSON list of candidate ids of an unresolved reference, else None."""
    return json.dumps(found, separators=(",", ":")) if found else None


INSERT_SYMBOLS = ("INSERT INTO symbols(id, symbol_id, stable_id, project_id, name, kind, fqn, signature, doc,"
                  " namespace, container_id, file_id, line, col, end_line, end_col, visibility, is_static, arity)"
                  " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
INSERT_SYMBOLS_FTS = "INSERT INTO symbols_fts(rowid, name_terms, signature, doc) VALUES (?,?,?,?)"
INSERT_PARTS = "INSERT INTO symbol_parts(symbol_id, project_id, file_id, line, col, end_line) VALUES (?,?,?,?,?,?)"
INSERT_RELATIONS = "INSERT INTO relations(type_id, related_id, related_name, kind, project_id) VALUES (?,?,?,?,?)"
INSERT_DIAGNOSTICS = ("INSERT INTO diagnostics(project_id, file_id, line, col, severity, code, message)"
                      " VALUES (?,?,?,?,?,?,?)")
INSERT_FACTS = ("INSERT INTO facts(kind, symbol_id, project_id, file_id, line, col, confidence, key, detail)"
                " VALUES (?,?,?,?,?,?,?,?,?)")


def symbol_rows(symbols: Sequence[SymbolRecord], start: int, file_id: Callable[[Any], int | None],
                project_id: Callable[[int], int]) -> list[tuple[Any, ...]]:
    """Symbol records as INSERT_SYMBOLS rows, ids counting from `start`."""
    return [(start + i, s.symbol_id, s.stable_id, project_id(s.project), s.name, s.kind, s.fqn, s.signature, s.doc,
             s.namespace, s.container, file_id(s.file), s.line, s.col, s.end_line, s.end_col, s.visibility,
             s.is_static, s.arity) for i, s in enumerate(symbols)]


def symbol_fts_rows(symbols: Sequence[SymbolRecord], start: int) -> list[tuple[int, str, str, str]]:
    return [(start + i, name_terms(s.name), s.signature or "", s.doc or "") for i, s in enumerate(symbols)]


INSERT_EXTERNALS = ("INSERT OR IGNORE INTO externals(symbol_id, name, kind, fqn, container_id, assembly, signature,"
                    " namespace) VALUES (?,?,?,?,?,?,?,?)")


def fill_externals_fts(db: sqlite3.Connection) -> None:
    """The FTS rows of every external symbol, once all batches are in (one row per symbol id)."""
    db.executemany("INSERT INTO externals_fts(rowid, name_terms, signature) VALUES (?,?,?)",
                   [(row_id, name_terms(name), signature or "") for row_id, name, signature in
                    db.execute("SELECT id, name, signature FROM externals").fetchall()])


def dependency_rows(projects: Iterable[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """project_deps rows: each project's `project_references` (paths, from the bridge) and `packages`
    (from roslyn/packages.py)."""
    projects = list(projects)
    by_path = {p["path"]: p for p in projects}
    rows: list[tuple[Any, ...]] = []
    for p in projects:
        for path in p.get("project_references") or []:
            target = by_path.get(path)
            name = target["name"] if target else Path(path).stem
            rows.append((p["index"], "project", name, None, None, target["index"] if target else None, path, 0))
        packages: list[PackageRecord] = p.get("packages") or []
        rows.extend((p["index"], "package", pkg.name, pkg.version, pkg.requested, None, None, int(pkg.implicit))
                    for pkg in packages)
    return rows


class BaselineWriter:
    """Accumulates bridge batches into a temp database; `publish` renames it into place."""

    def __init__(self, final_path: Path) -> None:
        self.final_path = final_path
        final_path.parent.mkdir(parents=True, exist_ok=True)
        self.temp_path = final_path.with_name(f".{final_path.name}.{os.getpid()}.tmp")
        self.temp_path.unlink(missing_ok=True)
        self.db = sqlite3.connect(self.temp_path, isolation_level=None)
        # The temp file is private until published: durability per statement buys nothing here.
        self.db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY;")
        self.db.executescript(TABLES)
        self.db.execute("BEGIN")
        self._file_ids: dict[str, int] = {}
        self._symbol_rows = 0
        self.keys = SymbolKeys(self.db, first_key=1)

    def _file_id(self, path: str | None) -> int | None:
        if path is None:
            return None
        file_id = self._file_ids.get(path)
        if file_id is None:
            file_id = self.db.execute("INSERT INTO files(path) VALUES (?)", (path,)).lastrowid
            assert file_id is not None
            self._file_ids[path] = file_id
        return file_id

    def add_projects(self, projects: Iterable[dict[str, Any]]) -> None:
        self.db.executemany(
            "INSERT INTO projects(id, name, path, target_framework, target_frameworks, documents, restored,"
            " load_errors, framework_choice, skipped_frameworks, assets_file, core_library_resolved, output_kind)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    p["index"], p["name"], p["path"], p.get("target_framework"),
                    json.dumps(p.get("target_frameworks") or []), p.get("documents", 0),
                    int(bool(p.get("restored"))), json.dumps(p.get("load_errors") or []),
                    p.get("framework_choice"), json.dumps(p.get("skipped_frameworks") or []), p.get("assets_file"),
                    int(bool(p.get("core_library_resolved"))), p.get("output_kind"),
                )
                for p in projects
            ],
        )
        self.db.executemany("INSERT INTO project_deps(project_id, kind, name, version, requested, target_project_id,"
                            " path, implicit) VALUES (?,?,?,?,?,?,?,?)", dependency_rows(projects))

    def add_batch(self, batch: Batch) -> None:
        fid = self._file_id
        for path, project, line_count in batch.files:
            self.db.execute(
                "INSERT INTO files(path, project_id, line_count) VALUES (?,?,?) ON CONFLICT(path) DO UPDATE "
                "SET project_id=excluded.project_id, line_count=excluded.line_count",
                (path, project, line_count),
            )
            row = self.db.execute("SELECT id FROM files WHERE path=?", (path,)).fetchone()
            self._file_ids[path] = row[0]
        symbols = batch.symbols
        start = self._symbol_rows + 1
        self.db.executemany(INSERT_SYMBOLS, symbol_rows(symbols, start, fid, int))
        self.db.executemany(INSERT_SYMBOLS_FTS, symbol_fts_rows(symbols, start))
        self._symbol_rows += len(symbols)
        self.db.executemany(INSERT_PARTS, [(sid, proj, fid(f), line, col, end)
                                           for sid, proj, f, line, col, end in batch.locations])
        self.db.executemany(INSERT_REFS, ref_rows(batch.refs, self.keys, fid, int))
        self.db.executemany(INSERT_RELATIONS, batch.relations)  # a relation record is its row
        self.db.executemany(INSERT_FACTS, [(f.kind, f.symbol_id, f.project, fid(f.file), f.line, f.col, f.confidence,
                                            f.key, f.detail) for f in batch.facts])
        self.db.executemany(INSERT_DIAGNOSTICS, [(d.project, fid(d.file), d.line, d.col, d.severity, d.code, d.message)
                                                 for d in batch.diagnostics])
        self.db.executemany(INSERT_EXTERNALS, batch.externals)  # an external record is its row

    def set_project_results(self, results: Iterable[dict[str, Any]]) -> None:
        self.db.executemany(
            "UPDATE projects SET error_count=?, missing_reference_errors=?, first_errors=?, semantic_level=?,"
            " resolved_refs=?, unresolved_refs=?, level_reason=?,"
            " core_library_resolved=coalesce(?, core_library_resolved) WHERE id=?",
            [
                (r.get("error_count", 0), r.get("missing_reference_errors", 0),
                 json.dumps(r.get("first_errors") or []), r.get("semantic_level", "syntax_only"),
                 r.get("resolved_references", 0), r.get("unresolved_references", 0), r.get("level_reason"),
                 None if r.get("core_library_resolved") is None else int(bool(r["core_library_resolved"])), r["index"])
                for r in results
            ],
        )

    def finish(self, meta: dict[str, Any]) -> None:
        # One grouped scan per table: a count per project in a correlated subquery scans the whole table (no
        # index yet) once per project (1.3 s on jellyfin's 40 projects and 246 k references).
        symbols = dict(self.db.execute("SELECT project_id, count(*) FROM symbols GROUP BY project_id").fetchall())
        refs = dict(self.db.execute("SELECT project_id, count(*) FROM refs GROUP BY project_id").fetchall())
        self.db.executemany("UPDATE projects SET symbol_count=?, ref_count=? WHERE id=?",
                            [(symbols.get(pid, 0), refs.get(pid, 0), pid)
                             for (pid,) in self.db.execute("SELECT id FROM projects").fetchall()])

        # Overlays hold this baseline's file ids and symbol keys: a rebuild (a new build_id) invalidates them.
        meta = {**meta, "schema_version": SCHEMA_VERSION, "build_id": f"build-{uuid.uuid4().hex}"}
        self.db.executemany(
            "INSERT OR REPLACE INTO meta(key, value) VALUES (?,?)",
            [(k, v if isinstance(v, str) else json.dumps(v)) for k, v in meta.items()],
        )
        fill_externals_fts(self.db)
        self.db.execute("COMMIT")
        self.db.executescript(INDEXES)
        central.store(self.db)  # repo_overview's ranking, once (store/central.py)
        # A relation belongs to the file declaring its type, so an overlay can replace it per file.
        self.db.execute(
            "UPDATE relations SET file_id = (SELECT s.file_id FROM symbols s WHERE s.symbol_id = relations.type_id"
            " AND s.project_id = relations.project_id LIMIT 1)")
        self.db.execute("ANALYZE")
        # Rollback-journal mode, not WAL: a published baseline is never written again, and readers open
        # it immutable, so no -wal/-shm file ever appears beside it (a WAL file leaves them per reader).
        self.db.execute("PRAGMA journal_mode=DELETE")
        self.db.close()

    def publish(self) -> Path:
        """Atomic: readers see either no baseline or a complete one, never a half-written file."""
        with open(self.temp_path, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(self.temp_path, self.final_path)
        return self.final_path

    def abandon(self) -> None:
        try:
            self.db.close()
        finally:
            self.temp_path.unlink(missing_ok=True)
