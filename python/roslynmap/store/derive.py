"""Baselines derived from an ancestor's (docs/ci.md, "Incremental baselines"): what the worker copies from
the ancestor instead of extracting it again, and how it decides what must be extracted again.

The result must equal a full index row for row, so everything here is conservative: a document is copied
only when nothing it binds to can have changed. The worker (roslyn/worker.py `derive`) extracts the
changed documents first; when any of them declares something different (its symbols' shapes, its partial
parts, base types, constant or field initializers, global usings or assembly attributes), every document
of its project and of the projects downstream is extracted again.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from roslynmap.model.records import (
    Batch,
    DiagnosticRecord,
    ExternalRecord,
    FactRecord,
    FileRecord,
    LocationRecord,
    RefRecord,
    RelationRecord,
    SymbolRecord,
)
from roslynmap.store import central, levels
from roslynmap.store.overlay import _uri

# Symbol kinds whose declaration text other documents may read as a value (constants folded into
# route templates, enum values); static fields too (fact extraction reads their string initializers).
VALUE_KINDS = ("Constant", "EnumMember")
# Text that changes binding in every document of a project, whatever it declares.
PROJECT_WIDE = ("global using", "[assembly:", "[module:", "extern alias")
# Facts of a method that its callers' facts are made from (the bridge's ConfigFlows and SqlFlows).
FLOW_KINDS = ("ConfigFlow", "SqlFlow")
# Facts of a whole project, not of the file they name (the bridge's GeneratedUses: what a project's source generators'
# output uses, placed at the used symbol's declaration): copied or recomputed per project, never per file.
PROJECT_FACT_KINDS = ("GeneratedUse",)
# The bridge's internal diagnostic when a project's generated code could not be read (on its project file).
GENERATED_CODE_FAILED = "RM0003"

Shape = frozenset[tuple[Any, ...]]


def open_ancestor(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(_uri(path, mode="ro", immutable="1"), uri=True)


def documents(conn: sqlite3.Connection) -> dict[str, int]:
    """The ancestor's indexed documents: path -> project id (files other rows name have no project)."""
    return {path: int(project) for path, project in
            conn.execute("SELECT path, project_id FROM files WHERE project_id IS NOT NULL")}


def project_mismatch(conn: sqlite3.Connection, solution: str | None,
                     projects: Sequence[dict[str, Any]]) -> str | None:
    """Why the ancestor's solution and projects are not the loaded ones (then nothing can be copied), else None."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'solution'").fetchone()
    if row is None or row[0] != solution:
        return "the ancestor indexed another solution"
    def norm(p: dict[str, Any]) -> tuple[Any, ...]:
        return (p["index"], p["name"], p["path"], p.get("target_framework"), list(p.get("target_frameworks") or []),
                bool(p.get("restored")), list(p.get("load_errors") or []), p.get("framework_choice"),
                list(p.get("skipped_frameworks") or []), p.get("assets_file"))

    old = []
    for row in conn.execute("SELECT id, name, path, target_framework, target_frameworks, restored, load_errors,"
                            " framework_choice, skipped_frameworks, assets_file FROM projects ORDER BY id"):
        old.append((row[0], row[1], row[2], row[3], json.loads(row[4] or "[]"), bool(row[5]),
                    json.loads(row[6] or "[]"), row[7], json.loads(row[8] or "[]"), row[9]))
    new = [norm(p) for p in sorted(projects, key=lambda p: int(p["index"]))]
    if old == new:
        return None
    changed = sorted({o[2] for o in old} ^ {n[2] for n in new}) or \
        [n[2] for o, n in zip(old, new, strict=False) if o != n][:3]
    return f"the projects changed ({', '.join(changed) or 'their number'})"


def _in(paths: Iterable[str]) -> str:
    return json.dumps(sorted(set(paths)))


def sharing_files(conn: sqlite3.Connection, paths: Iterable[str], symbol_ids: Iterable[str] = ()) -> set[str]:
    """Files of the ancestor that declare (a row or a partial part) a symbol declared in `paths` or named in
    `symbol_ids`: a partial type's row and doc summary depend on all its parts."""
    wanted = _in(paths)
    ids = {r[0] for r in conn.execute(
        "SELECT s.symbol_id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path IN"
        " (SELECT value FROM json_each(?)) UNION SELECT p.symbol_id FROM symbol_parts p JOIN files f"
        " ON f.id = p.file_id WHERE f.path IN (SELECT value FROM json_each(?))", (wanted, wanted))}
    ids |= set(symbol_ids)
    if not ids:
        return set()
    named = _in(ids)
    return {r[0] for r in conn.execute(
        "SELECT f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.symbol_id IN"
        " (SELECT value FROM json_each(?)) UNION SELECT f.path FROM symbol_parts p JOIN files f"
        " ON f.id = p.file_id WHERE p.symbol_id IN (SELECT value FROM json_each(?))", (named, named))}


def batch_symbol_ids(batch: Batch) -> set[str]:
    return {s.symbol_id for s in batch.symbols} | {p.symbol_id for p in batch.locations}


def _value_text(lines: list[str], line: int, end_line: int) -> str:
    return "\n".join(lines[line - 1:end_line])


def shape_rows(symbols: Iterable[Sequence[Any]], parts: Iterable[str], relations: Iterable[Sequence[Any]],
               text: str | None, flows: Iterable[Sequence[Any]] = ()) -> Shape:
    """What other documents may bind to in one file: symbols without positions or doc comments (with the
    declaration text of value-like members), partial part ids, base types and interfaces, the configuration
    keys its methods read through their parameters (ConfigFlow facts: a caller's keys are made from them) and the
    parameters they run as SQL (SqlFlow facts: a caller's tables are read from its arguments), and
    whether the text holds something project-wide (global usings, assembly attributes).
    `symbols`: (symbol_id, stable_id, project, name, kind, fqn, signature, namespace, container, visibility,
    is_static, arity, line, end_line)."""
    lines = (text or "").splitlines()
    out: set[tuple[Any, ...]] = set()
    for s in symbols:
        out.add(("symbol", *s[:12]))
        if s[4] in VALUE_KINDS or (s[4] == "Field" and s[10]):
            out.add(("value", s[0], _value_text(lines, int(s[12]), int(s[13]))))
    out.update(("part", p) for p in parts)
    out.update(("relation", *r) for r in relations)
    out.update(("flow", *f) for f in flows)
    if text is not None and any(marker in text for marker in PROJECT_WIDE):
        out.add(("project-wide", text))
    return frozenset(out)


def ancestor_shape(conn: sqlite3.Connection, path: str, text: str | None) -> Shape:
    symbols = conn.execute(
        "SELECT s.symbol_id, s.stable_id, s.project_id, s.name, s.kind, s.fqn, s.signature, s.namespace,"
        " s.container_id, s.visibility, s.is_static, s.arity, s.line, s.end_line FROM symbols s JOIN files f"
        " ON f.id = s.file_id WHERE f.path = ?", (path,)).fetchall()
    parts = [r[0] for r in conn.execute(
        "SELECT p.symbol_id FROM symbol_parts p JOIN files f ON f.id = p.file_id WHERE f.path = ?", (path,))]
    relations = conn.execute(
        "SELECT r.type_id, r.related_id, r.related_name, r.kind, r.project_id FROM relations r JOIN files f"
        " ON f.id = r.file_id WHERE f.path = ?", (path,)).fetchall()
    flows = conn.execute("SELECT x.kind, x.symbol_id, x.key, x.detail FROM facts x JOIN files f ON f.id = x.file_id"
                         " WHERE x.kind IN (SELECT value FROM json_each(?)) AND f.path = ?",
                         (json.dumps(FLOW_KINDS), path)).fetchall()
    return shape_rows(symbols, parts, relations, text, flows)


def batch_shape(batch: Batch, path: str, text: str | None) -> Shape:
    symbols = [s for s in batch.symbols if s.file == path]
    declared = {(s.symbol_id, s.project) for s in symbols}
    rows = [(s.symbol_id, s.stable_id, s.project, s.name, s.kind, s.fqn, s.signature, s.namespace, s.container,
             s.visibility, bool(s.is_static), s.arity, s.line, s.end_line) for s in symbols]
    parts = [p.symbol_id for p in batch.locations if p.file == path]
    relations = [tuple(r) for r in batch.relations if (r.type_id, r.project) in declared]
    flows = [(f.kind, f.symbol_id, f.key, f.detail) for f in batch.facts if f.kind in FLOW_KINDS and f.file == path]
    return shape_rows(rows, parts, relations, text, flows)


def normalized(shape: Shape) -> Shape:
    """SQLite gives is_static as 0/1 and the bridge as a bool: compare them alike."""
    return frozenset(tuple(int(v) if isinstance(v, bool) else v for v in row) for row in shape)


def downstream(projects: Iterable[int], references: dict[int, list[int]]) -> set[int]:
    """These projects and every project that references one of them, transitively."""
    out = set(projects)
    changed = True
    while changed:
        changed = False
        for project, refs in references.items():
            if project not in out and out.intersection(refs):
                out.add(project)
                changed = True
    return out


def replay_batch(conn: sqlite3.Connection, paths: Iterable[str]) -> Batch:
    """The ancestor's rows of these documents as one bridge batch (model/records.py), so the writer
    stores them exactly as it stores a fresh extraction; with the external symbols they name."""
    wanted = _in(paths)
    where = "f.path IN (SELECT value FROM json_each(?))"
    batch = Batch()
    batch.files = [FileRecord._make(r) for r in conn.execute(
        f"SELECT f.path, f.project_id, f.line_count FROM files f WHERE {where} ORDER BY f.id", (wanted,))]
    batch.symbols = [SymbolRecord._make((*r[:16], bool(r[16]), r[17])) for r in conn.execute(
        "SELECT s.symbol_id, s.stable_id, s.project_id, s.name, s.kind, s.fqn, s.signature, s.doc, s.namespace,"
        " s.container_id, f.path, s.line, s.col, s.end_line, s.end_col, s.visibility, s.is_static, s.arity"
        f" FROM symbols s JOIN files f ON f.id = s.file_id WHERE {where} ORDER BY s.id", (wanted,))]
    batch.locations = [LocationRecord._make(r) for r in conn.execute(
        "SELECT p.symbol_id, p.project_id, f.path, p.line, p.col, p.end_line FROM symbol_parts p JOIN files f"
        f" ON f.id = p.file_id WHERE {where} ORDER BY p.rowid", (wanted,))]
    batch.refs = [RefRecord._make((*r[:11], json.loads(r[11]) if r[11] else None)) for r in conn.execute(
        "SELECT t.symbol_id, r.target_name, r.target_kind, o.symbol_id, r.project_id, f.path, r.line, r.col,"
        " r.end_col, r.kind, r.receiver, r.candidates FROM refs r JOIN files f ON f.id = r.file_id"
        " LEFT JOIN ids t ON t.key = r.target_key LEFT JOIN ids o ON o.key = r.from_key"
        f" WHERE {where} ORDER BY r.id", (wanted,))]
    batch.relations = [RelationRecord._make(r) for r in conn.execute(
        "SELECT r.type_id, r.related_id, r.related_name, r.kind, r.project_id FROM relations r JOIN files f"
        f" ON f.id = r.file_id WHERE {where} ORDER BY r.rowid", (wanted,))]
    batch.facts = [FactRecord._make(r) for r in conn.execute(
        "SELECT x.kind, x.symbol_id, x.project_id, f.path, x.line, x.col, x.confidence, x.key, x.detail"
        f" FROM facts x JOIN files f ON f.id = x.file_id WHERE {where}"
        " AND x.kind NOT IN (SELECT value FROM json_each(?)) ORDER BY x.id", (wanted, json.dumps(PROJECT_FACT_KINDS)))]
    batch.diagnostics = [DiagnosticRecord._make(r) for r in conn.execute(
        "SELECT d.project_id, f.path, d.line, d.col, d.severity, d.code, d.message FROM diagnostics d"
        f" JOIN files f ON f.id = d.file_id WHERE {where} ORDER BY d.rowid", (wanted,))]
    batch.externals = externals_for(conn, batch)
    return batch


def regenerated_projects(conn: sqlite3.Connection, extracted: Iterable[int], paths: Iterable[str]) -> set[int]:
    """Projects whose GeneratedUse facts are computed again: one with a document extracted again (its generated code
    may differ), and one whose ancestor facts stand in a file extracted again (at a used symbol's declaration, which
    may have moved). What generated code binds to changes only with a declaration's shape, which re-extracts the
    documents downstream: those projects are in the first set. A body edit in a core library regenerates that library
    and the projects using its symbols' files, not everything downstream."""
    rows = conn.execute(
        "SELECT DISTINCT x.project_id FROM facts x JOIN files f ON f.id = x.file_id WHERE x.kind IN"
        " (SELECT value FROM json_each(?)) AND f.path IN (SELECT value FROM json_each(?)) AND x.project_id IS NOT NULL",
        (json.dumps(PROJECT_FACT_KINDS), json.dumps(sorted(set(paths)))))
    return set(extracted) | {int(r[0]) for r in rows}


def replay_project_facts(conn: sqlite3.Connection, keep: Iterable[int]) -> Batch:
    """The ancestor's project-wide facts (PROJECT_FACT_KINDS) of these projects, copied as they are, with the
    internal diagnostic the bridge leaves on the project file when it could not read the generated code."""
    projects = json.dumps(sorted(set(keep)))
    return Batch(facts=[FactRecord._make(r) for r in conn.execute(
        "SELECT x.kind, x.symbol_id, x.project_id, f.path, x.line, x.col, x.confidence, x.key, x.detail"
        " FROM facts x LEFT JOIN files f ON f.id = x.file_id WHERE x.kind IN (SELECT value FROM json_each(?))"
        " AND x.project_id IN (SELECT value FROM json_each(?)) ORDER BY x.id",
        (json.dumps(PROJECT_FACT_KINDS), projects))],
        diagnostics=[DiagnosticRecord._make(r) for r in conn.execute(
            "SELECT d.project_id, f.path, d.line, d.col, d.severity, d.code, d.message FROM diagnostics d"
            " JOIN files f ON f.id = d.file_id WHERE d.code = ? AND d.project_id IN (SELECT value FROM json_each(?))"
            " ORDER BY d.rowid", (GENERATED_CODE_FAILED, projects))])


def externals_for(conn: sqlite3.Connection, batch: Batch) -> list[ExternalRecord]:
    """The ancestor's external symbols these rows name (targets, candidates, related types), with their
    containers, as the bridge records them per document."""
    named = {r.target for r in batch.refs if r.target} | {r.source for r in batch.refs if r.source}
    named |= {c for r in batch.refs if r.candidates for c in r.candidates}
    named |= {r.related_id for r in batch.relations if r.related_id}
    rows: dict[str, ExternalRecord] = {}
    frontier = named
    while frontier:
        found = [ExternalRecord._make(r) for r in conn.execute(
            "SELECT symbol_id, name, kind, fqn, container_id, assembly, signature, namespace FROM externals"
            " WHERE symbol_id IN (SELECT value FROM json_each(?))", (_in(frontier),))]
        for row in found:
            rows[row.symbol_id] = row
        frontier = {r.container for r in found if r.container and r.container not in rows}
    return [rows[k] for k in sorted(rows)]


def project_results(db: sqlite3.Connection, order: dict[tuple[str, int], int], summary: Sequence[dict[str, Any]],
                    missing_codes: Sequence[str]) -> list[dict[str, Any]]:
    """Per project what the bridge's Summary() tallies during a full extraction, counted from the written
    rows (documents in extraction order `order`, so first_errors match); the level rule as
    ProjectEntry.SemanticLevel / LevelReason."""
    errors: dict[int, list[tuple[int, int, str, str]]] = {}
    for rowid, project, path, line, code, message in db.execute(
            "SELECT d.rowid, d.project_id, f.path, d.line, d.code, d.message FROM diagnostics d"
            " JOIN files f ON f.id = d.file_id WHERE d.severity = 'error'"):
        position = order.get((path, project), len(order))
        errors.setdefault(project, []).append((position, rowid, code, f"{path}:{line}: {code}: {message}"))
    bound = {(int(p), bool(b)): int(n) for p, b, n in db.execute(
        "SELECT project_id, target_key IS NOT NULL, count(*) FROM refs GROUP BY 1, 2")}
    codes = set(missing_codes)
    out = []
    for fresh in summary:
        index = int(fresh["index"])
        found = sorted(errors.get(index, []))
        missing = sum(1 for _, _, code, _ in found if code in codes)
        level, reason = levels.level_and_reason(fresh.get("semantic_level"), fresh.get("level_reason"), missing,
                                                list(fresh.get("unresolved_packages") or []))
        out.append({**fresh, "error_count": len(found), "missing_reference_errors": missing,
                    "first_errors": [text for _, _, _, text in found[:5]],
                    "resolved_references": bound.get((index, True), 0),
                    "unresolved_references": bound.get((index, False), 0),
                    "semantic_level": level, "level_reason": reason})
    return out


def counts(db: sqlite3.Connection, documents: int, projects: int) -> dict[str, int]:
    """The meta counts a full index adds up batch by batch, counted from the rows."""
    def one(sql: str) -> int:
        return int(db.execute(sql).fetchone()[0])

    return {"symbols": one("SELECT count(*) FROM symbols"), "references": one("SELECT count(*) FROM refs"),
            "files": documents, "unresolved_references": one("SELECT count(*) FROM refs WHERE target_key IS NULL"),
            "facts": one("SELECT count(*) FROM facts"), "projects": projects}


# Meta that differs between any two builds, or says how the baseline was made.
VOLATILE_META = {"build_id", "created_at", "index_seconds", "load_ms", "derived_from"}


def comparable_tables(path: Path) -> dict[str, Any]:
    """Every table of a baseline with row ids dropped and ids/keys/file ids replaced by what they name, meta
    without what differs between any two builds: a derived baseline must equal a full index in all of it."""
    db = open_ancestor(path)
    try:
        def rows(sql: str) -> list[tuple[Any, ...]]:
            return sorted(db.execute(sql).fetchall(), key=repr)

        out: dict[str, Any] = {
            "meta": {k: v for k, v in db.execute("SELECT key, value FROM meta") if k not in VOLATILE_META},
            "projects": rows("SELECT * FROM projects"),
            "files": rows("SELECT path, project_id, line_count FROM files"),
            "symbols": rows(
                "SELECT s.symbol_id, s.stable_id, s.project_id, s.name, s.kind, s.fqn, s.signature, s.doc, s.namespace,"
                " s.container_id, f.path, s.line, s.col, s.end_line, s.end_col, s.visibility, s.is_static, s.arity"
                " FROM symbols s LEFT JOIN files f ON f.id = s.file_id"),
            "symbol_parts": rows("SELECT p.symbol_id, p.project_id, f.path, p.line, p.col, p.end_line"
                                 " FROM symbol_parts p LEFT JOIN files f ON f.id = p.file_id"),
            "ids": rows("SELECT symbol_id FROM ids"),
            "refs": rows(
                "SELECT t.symbol_id, r.target_name, r.target_kind, o.symbol_id, r.project_id, f.path, r.line, r.col,"
                " r.end_col, r.kind, r.receiver, r.candidates FROM refs r LEFT JOIN files f ON f.id = r.file_id"
                " LEFT JOIN ids t ON t.key = r.target_key LEFT JOIN ids o ON o.key = r.from_key"),
            "externals": rows("SELECT symbol_id, name, kind, fqn, container_id, assembly, signature, namespace"
                              " FROM externals"),
            "relations": rows("SELECT r.type_id, r.related_id, r.related_name, r.kind, r.project_id, f.path"
                              " FROM relations r LEFT JOIN files f ON f.id = r.file_id"),
            "facts": rows("SELECT x.kind, x.symbol_id, x.project_id, f.path, x.line, x.col, x.confidence, x.key,"
                          " x.detail FROM facts x LEFT JOIN files f ON f.id = x.file_id"),
            "diagnostics": rows("SELECT d.project_id, f.path, d.line, d.col, d.severity, d.code, d.message"
                                " FROM diagnostics d LEFT JOIN files f ON f.id = d.file_id"),
            "central_types": central.stored(db, central.STORED),
            "symbols_fts": db.execute("SELECT count(*) FROM symbols_fts").fetchone()[0],
            "externals_fts": db.execute("SELECT count(*) FROM externals_fts").fetchone()[0],
        }
    finally:
        db.close()
    return out
