"""symbols_search, symbols_get_card, and resolving a user-supplied id to exactly one symbol."""

from __future__ import annotations

import difflib
import re
import sqlite3
from dataclasses import dataclass
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.ids import ID_FORMAT_HINT, is_doc_id, is_stable_id, name_from_doc_id
from roslynmap.model.kinds import SYMBOL_KINDS, TYPE_KINDS
from roslynmap.model.rows import Callee, ExternalCard, PartLocation, SymbolCard, SymbolSummary
from roslynmap.query import shortids
from roslynmap.query.keys import ids_of, key_of
from roslynmap.query.surfaces import exceptions_through_calls, facts_of_symbol
from roslynmap.query.tally import tally
from roslynmap.store.names import fts_expression
from roslynmap.store.overlay import fts_symbols_sql, is_overlay

CARD_THROW_DEPTH = 2

SYMBOL_COLUMNS = (
    "s.id AS row_id, s.symbol_id, s.stable_id, s.name, s.kind, s.fqn, s.signature, s.doc, s.namespace,"
    " s.container_id, s.line, s.col, s.end_line, s.end_col, s.visibility, s.is_static, s.arity,"
    " s.project_id, f.path AS file, p.name AS project, 0 AS external, NULL AS assembly"
)
# A framework or package symbol (the `externals` table) in the shape of a symbol row: no file, no project.
EXTERNAL_COLUMNS = (
    "e.id AS row_id, e.symbol_id, NULL AS stable_id, e.name, e.kind, e.fqn, e.signature, '' AS doc, e.namespace,"
    " e.container_id, NULL AS line, NULL AS col, NULL AS end_line, NULL AS end_col, NULL AS visibility,"
    " 0 AS is_static, 0 AS arity, NULL AS project_id, NULL AS file, NULL AS project, 1 AS external,"
    " e.assembly"
)
SYMBOL_JOINS = "LEFT JOIN files f ON f.id = s.file_id JOIN projects p ON p.id = s.project_id"
SYMBOL_FROM = f"symbols s {SYMBOL_JOINS}"


def summary(row: sqlite3.Row) -> SymbolSummary:
    """The compact shape used in every list: enough to decide and to call the next tool."""
    out: SymbolSummary = {
        "symbol_id": row["symbol_id"],
        "name": row["name"],
        "kind": row["kind"],
        "signature": row["signature"],
        "file": row["file"],
        "line": row["line"],
        "project": row["project"],
    }
    if row["external"]:
        out["external"] = True
        out["assembly"] = row["assembly"]
    return out


def validate_kinds(kinds: list[str] | None) -> list[str]:
    if not kinds:
        return []
    by_lower = {k.lower(): k for k in SYMBOL_KINDS}
    out = []
    for kind in kinds:
        known = by_lower.get(kind.strip().lower())
        if known is None:
            raise RoslynMapError(
                ErrorCode.INVALID_ARGUMENT,
                f"Unknown symbol kind '{kind}'.",
                f"Valid kinds: {', '.join(SYMBOL_KINDS)}.",
            )
        out.append(known)
    return out


@dataclass
class SearchResult:
    items: list[SymbolSummary]
    total: int
    by_file: list[dict[str, Any]]
    by_kind: list[dict[str, Any]]
    mode: str


def search(
    conn: sqlite3.Connection,
    query: str | None,
    kinds: list[str],
    namespace: str | None,
    file_prefix: str | None,
    limit: int,
    offset: int,
) -> SearchResult:
    filters: list[str] = []
    filter_args: list[Any] = []
    if kinds:
        filters.append(f"s.kind IN ({','.join('?' * len(kinds))})")
        filter_args.extend(kinds)
    if namespace:
        ns = namespace.strip().strip(".")
        filters.append("(s.namespace = ? OR substr(s.namespace, 1, ?) = ?)")
        filter_args.extend([ns, len(ns) + 1, ns + "."])
    if file_prefix:
        filters.append("substr(f.path, 1, ?) = ?")
        filter_args.extend([len(file_prefix), file_prefix])
    match = fts_expression(query or "")
    # `BackgroundJob.Enqueue`: members of the named type come first (the FTS words alone match neither).
    qualified = _qualified_rows(conn, query, filters, filter_args) if match is not None else []
    where = list(filters)
    args: list[Any] = []
    score = "bm25(symbols_fts, 10.0, 2.0, 1.0)"
    if match is not None and is_overlay(conn):  # a workspace: baseline and overlay FTS hits
        source = f"({fts_symbols_sql()}) s {SYMBOL_JOINS}"
        args.extend([match, match])
        score = "s.score"
    elif match is not None:
        source = f"symbols_fts JOIN symbols s ON s.id = symbols_fts.rowid {SYMBOL_JOINS}"
        where.insert(0, "symbols_fts MATCH ?")
        args.append(match)
    else:
        source = SYMBOL_FROM
    args.extend(filter_args)
    if qualified:
        where.append(f"s.id NOT IN ({','.join('?' * len(qualified))})")
        args.extend(r["row_id"] for r in qualified)
    clause = f"WHERE {' AND '.join(where)}" if where else ""
    if match is not None:
        words = (query or "").strip().lower()
        types = ",".join(f"'{k}'" for k in TYPE_KINDS)
        order = (f"(lower(s.name) = ?) DESC, (s.kind IN ({types})) DESC, {score},"
                 " length(s.name), s.name, s.symbol_id")
        order_args: list[Any] = [words]
    else:
        order, order_args = "s.name, s.symbol_id", []
    rows = qualified[offset:offset + limit]
    if len(rows) < limit:
        rows += conn.execute(
            f"SELECT {SYMBOL_COLUMNS} FROM {source} {clause} ORDER BY {order} LIMIT ? OFFSET ?",
            [*args, *order_args, limit - len(rows), max(0, offset - len(qualified))],
        ).fetchall()
    # total, by_file and by_kind from one grouped pass over the whole filtered set
    groups = conn.execute(
        f"SELECT f.path, s.kind, count(*) FROM {source} {clause} GROUP BY f.path, s.kind", args).fetchall()
    groups += [(r["file"], r["kind"], 1) for r in qualified]
    own = sum(g[2] for g in groups)
    if match is not None and not file_prefix:
        # Framework and package symbols come after the solution's own, marked external.
        ext_where, ext_args = _external_filters(kinds, namespace)
        ext_from = ("externals_fts JOIN externals e ON e.id = externals_fts.rowid"
                    f" WHERE externals_fts MATCH ?{ext_where}")
        start = max(0, offset - own)
        room = limit - len(rows)
        if room > 0:
            rows += conn.execute(
                f"SELECT {EXTERNAL_COLUMNS} FROM {ext_from} ORDER BY (lower(e.name) = ?) DESC,"
                " bm25(externals_fts, 10.0, 1.0), length(e.name), e.name, e.symbol_id LIMIT ? OFFSET ?",
                [match, *ext_args, (query or "").strip().lower(), room, start]).fetchall()
        groups += conn.execute(f"SELECT NULL, e.kind, count(*) FROM {ext_from} GROUP BY e.kind",
                               [match, *ext_args]).fetchall()
    counts = tally(groups)
    total, by_file, by_kind = counts.total, counts.by_file, counts.by_kind
    return SearchResult([summary(r) for r in rows], total, by_file, by_kind, "fts" if match else "browse")


_QUALIFIED = re.compile(r"[A-Za-z_@][\w@]*(?:<[^<>]*>)?(?:\.[A-Za-z_@][\w@]*(?:<[^<>]*>)?)+")
_TYPE_ARGS = re.compile(r"<[^<>]*>")


def _qualified_rows(conn: sqlite3.Connection, query: str | None, filters: list[str],
                    filter_args: list[Any]) -> list[sqlite3.Row]:
    """Declared symbols a dotted query names by their qualified name: `BackgroundJob.Enqueue` and
    `Hangfire.BackgroundJob.Enqueue` are the member `Enqueue` of a type `BackgroundJob` (all overloads),
    `Shop.Domain.Order` the type. Type arguments and a trailing `(...)` are ignored."""
    text = (query or "").strip().split("(", 1)[0].replace("@", "")
    if not _QUALIFIED.fullmatch(text):
        return []
    qualified = _TYPE_ARGS.sub("", text)
    name = qualified.rsplit(".", 1)[-1]
    where = " AND ".join(["s.name = ?", *filters])
    rows = conn.execute(f"SELECT {SYMBOL_COLUMNS} FROM {SYMBOL_FROM} WHERE {where}"
                        " ORDER BY s.symbol_id, p.id", [name, *filter_args]).fetchall()
    return [r for r in rows if ("." + _TYPE_ARGS.sub("", r["fqn"] or "")).endswith("." + qualified)]


def _external_filters(kinds: list[str], namespace: str | None) -> tuple[str, list[Any]]:
    where = ""
    args: list[Any] = []
    if kinds:
        where += f" AND e.kind IN ({','.join('?' * len(kinds))})"
        args.extend(kinds)
    if namespace:
        ns = namespace.strip().strip(".")
        where += " AND (e.namespace = ? OR substr(e.namespace, 1, ?) = ?)"
        args.extend([ns, len(ns) + 1, ns + "."])
    return where, args


def external(conn: sqlite3.Connection, symbol_id: str) -> sqlite3.Row | None:
    """The framework or package symbol with this doc id that some reference names, if any."""
    found: sqlite3.Row | None = conn.execute(
        f"SELECT {EXTERNAL_COLUMNS} FROM externals e WHERE e.symbol_id = ?", (symbol_id,)).fetchone()
    return found


# What `assembly` says of a symbol references name that no indexed file declares: a Blazor component only its .razor
# file declares (MudBlazor's MudTabPanel: 23 references, yet "No symbol 'T:MudBlazor.MudTabPanel' in the index"), its
# `@code` members, another source generator's class (a .resx's), an implicit constructor.
UNDECLARED = "(declared in no indexed file: source-generated or implicit)"


def undeclared(conn: sqlite3.Connection, symbol_id: str) -> sqlite3.Row | None:
    """A symbol some reference binds to that neither the solution's files nor metadata declare, in the shape of an
    external row (its kind and name as the reference has them), so its references can be asked for by id."""
    found: sqlite3.Row | None = conn.execute(
        "SELECT NULL AS row_id, i.symbol_id, NULL AS stable_id, r.target_name AS name, r.target_kind AS kind,"
        " substr(i.symbol_id, 3) AS fqn, NULL AS signature, '' AS doc, NULL AS namespace, NULL AS container_id,"
        " NULL AS line, NULL AS col, NULL AS end_line, NULL AS end_col, NULL AS visibility, 0 AS is_static,"
        " 0 AS arity, NULL AS project_id, NULL AS file, NULL AS project, 1 AS external, ? AS assembly"
        " FROM ids i JOIN refs r ON r.target_key = i.key WHERE i.symbol_id = ? AND r.target_kind IS NOT NULL LIMIT 1",
        (UNDECLARED, symbol_id)).fetchone()
    return found


def suggest(conn: sqlite3.Connection, text: str, limit: int = 3) -> list[dict[str, Any]]:
    """Up to `limit` likely symbols for a mistyped id or name (NOT_FOUND candidates): names a few edits
    away (`OrderService.Placee` -> `OrderService.Place`, members of the named type first), then a search."""
    name, qualifier = _name_and_type(text)
    rows = _near(conn, name, qualifier, text[:2] if is_doc_id(text) else None, limit)
    seen = {r["symbol_id"] for r in rows}
    if len(rows) < limit and fts_expression(name):
        more = search(conn, name, [], None, None, limit, 0).items
        rows += [i for i in more if i["symbol_id"] not in seen]
    return [{"symbol_id": r["symbol_id"], "kind": r["kind"], "file": r["file"], "line": r["line"]}
            for r in rows[:limit]]


def _name_and_type(text: str) -> tuple[str, str | None]:
    """`M:Shop.OrderService.Place(X)` and `OrderService.Place` -> ("Place", "OrderService")."""
    body = text.strip()
    if is_doc_id(body):
        name = name_from_doc_id(body)
        body = body[2:].split("(", 1)[0]
    else:
        body = body.removesuffix("()")
        name = body.rsplit(".", 1)[-1]
    parts = body.split(".")
    qualifier = parts[-2].split("`", 1)[0] if len(parts) > 1 else None
    return name, qualifier


def _near(conn: sqlite3.Connection, name: str, qualifier: str | None, prefix: str | None, limit: int) -> list[Any]:
    """Declared symbols whose name is a few edits from `name` (same first letter, similar length); members
    of the named type first, then symbols of the kind the mistyped id had (`T:` types, `M:` methods)."""
    if not name or not name[0].isalpha():
        return []
    first = name[0]
    names = [r[0] for r in conn.execute(
        "SELECT DISTINCT name FROM symbols WHERE name >= ? AND name < ? AND length(name) BETWEEN ? AND ?",
        (first, chr(ord(first) + 1), len(name) - 2, len(name) + 2))]
    close = difflib.get_close_matches(name, names, n=limit * 2, cutoff=0.75)
    if not close:
        return []
    rows = conn.execute(f"SELECT {SYMBOL_COLUMNS} FROM {SYMBOL_FROM} WHERE s.name IN ({','.join('?' * len(close))})"
                        " ORDER BY s.symbol_id", close).fetchall()
    rank = {n: i for i, n in enumerate(close)}

    def in_type(row: sqlite3.Row) -> bool:
        container = (row["container_id"] or "").split("(", 1)[0]
        return bool(qualifier) and container.rsplit(".", 1)[-1].split("`", 1)[0] == qualifier

    rows.sort(key=lambda r: (not in_type(r), bool(prefix) and not r["symbol_id"].startswith(prefix or ""),
                             rank[r["name"]], r["kind"] == "Constructor", r["symbol_id"]))  # a type before its ctors
    return list({r["symbol_id"]: r for r in rows}.values())


def rows_where(conn: sqlite3.Connection, column: str, value: str, project: str | None,
               order: str = "p.id") -> list[sqlite3.Row]:
    """Symbol rows whose `column` equals `value`, in one project when given (resolve and plain names)."""
    sql = f"SELECT {SYMBOL_COLUMNS} FROM {SYMBOL_FROM} WHERE {column} = ?"
    args: list[Any] = [value]
    if project:
        sql += " AND p.name = ?"
        args.append(project)
    return conn.execute(f"{sql} ORDER BY {order}", args).fetchall()


def resolve(conn: sqlite3.Connection, symbol_id: str, project: str | None = None) -> sqlite3.Row:
    """Exactly one symbol row for a doc id or stable id, or NOT_FOUND / AMBIGUOUS with candidates."""
    text = symbol_id.strip()
    if is_stable_id(text):
        column = "s.stable_id"
    elif is_doc_id(text):
        column = "s.symbol_id"
    else:
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"'{symbol_id}' is not a symbol id.",
            ID_FORMAT_HINT,
            candidates=suggest(conn, text) or None,
        )
    rows = rows_where(conn, column, text, project)
    if not rows and column == "s.symbol_id" and (ext := external(conn, text)) is not None:
        return ext  # a framework or package member: queryable by id like the solution's own
    if not rows and column == "s.symbol_id" and len(full := shortids.expand(conn, text)) == 1:
        return resolve(conn, full[0], project)  # a short id from an answer (query/shortids.py)
    # Declared in no indexed file at all, not merely outside the asked project (which is NOT_FOUND below).
    if not rows and column == "s.symbol_id" and (project is None or not rows_where(conn, column, text, None)) \
            and (hidden := undeclared(conn, text)) is not None:
        return hidden
    if not rows:
        candidates = suggest(conn, text)
        raise RoslynMapError(
            ErrorCode.NOT_FOUND,
            f"No symbol '{text}'" + (f" in project '{project}'." if project else " in the index."),
            ("Did you mean one of the candidates? Otherwise search" if candidates else "No close name; search")
            + f": symbols_search(query=\"{name_from_doc_id(text) if is_doc_id(text) else text}\").",
            candidates=candidates or None,
        )
    # One source file compiled into several projects (a linked `Guard.cs`) is one declaration: nothing to choose.
    if len(rows) > 1 and len({(r["file"], r["line"]) for r in rows}) > 1:
        raise RoslynMapError(
            ErrorCode.AMBIGUOUS,
            f"'{text}' is declared in {len(rows)} projects.",
            f"Pass project, e.g. project=\"{rows[0]['project']}\".",
            candidates=[{"symbol_id": r["symbol_id"], "project": r["project"], "file": r["file"],
                         "line": r["line"]} for r in rows],
        )
    found: sqlite3.Row = rows[0]
    return found


def external_card(conn: sqlite3.Connection, row: sqlite3.Row) -> ExternalCard:
    """The card of a framework or package symbol: what metadata says, and how often the solution uses it."""
    uses = conn.execute("SELECT kind, count(*) FROM refs WHERE target_key = ? GROUP BY kind ORDER BY kind",
                        (key_of(conn, row["symbol_id"]),)).fetchall()
    return {
        "symbol_id": row["symbol_id"], "stable_id": None, "fqn": row["fqn"], "name": row["name"],
        "kind": row["kind"], "signature": row["signature"], "doc": "", "namespace": row["namespace"],
        "containing_type": row["container_id"], "external": True, "assembly": row["assembly"],
        "references_by_kind": {k: c for k, c in uses}, "location": None, "top_callees": [],
        "facts": facts_of_symbol(conn, row["symbol_id"]),
    }


def card(conn: sqlite3.Connection, row: sqlite3.Row, max_callees: int = 10) -> SymbolCard | ExternalCard:
    if row["external"]:
        return external_card(conn, row)
    return source_card(conn, row, max_callees)


def source_card(conn: sqlite3.Connection, row: sqlite3.Row, max_callees: int = 10) -> SymbolCard:
    rows = conn.execute(
        "SELECT target_key, target_name, target_kind, count(*) c FROM refs"
        " WHERE from_key = ? AND project_id = ? AND kind IN ('Call', 'ImplicitCall', 'Instantiate')"
        " AND (target_kind IS NULL OR target_kind != 'Class') GROUP BY target_key, target_name"
        " ORDER BY c DESC, target_name LIMIT ?",
        (key_of(conn, row["symbol_id"]), row["project_id"], max_callees),
    ).fetchall()
    names = ids_of(conn, (r[0] for r in rows))
    callees: list[Callee] = [{"symbol_id": names.get(r[0]), "name": r[1], "kind": r[2], "calls": r[3]} for r in rows]
    parts: list[PartLocation] = [
        {"file": r[0], "line": r[1], "end_line": r[2]}
        for r in conn.execute(
            "SELECT f.path, sp.line, sp.end_line FROM symbol_parts sp JOIN files f ON f.id = sp.file_id"
            " WHERE sp.symbol_id = ? AND sp.project_id = ? ORDER BY f.path, sp.line",
            (row["symbol_id"], row["project_id"]),
        )
    ]
    facts = facts_of_symbol(conn, row["symbol_id"], row["project_id"])
    # What it may throw, through its callees too (CARD_THROW_DEPTH levels): the ones thrown elsewhere with
    # their call path, helpers' documented ones marked `inferred`.
    # `<Main>$` is one id in every top-level-statement project: its callees would mix projects.
    through = [i for i in exceptions_through_calls(conn, row["symbol_id"], CARD_THROW_DEPTH).items
               if i["thrown_in"] != row["symbol_id"]] if row["kind"] in ("Method", "Constructor") \
        and row["name"] != "<Main>$" else []
    out: SymbolCard = {
        "symbol_id": row["symbol_id"],
        "stable_id": row["stable_id"],
        "fqn": row["fqn"],
        "name": row["name"],
        "kind": row["kind"],
        "signature": row["signature"],
        "doc": row["doc"] or "",
        "namespace": row["namespace"],
        "containing_type": row["container_id"],
        "visibility": row["visibility"],
        "is_static": bool(row["is_static"]),
        "project": row["project"],
        "location": {"file": row["file"], "line": row["line"], "col": row["col"], "end_line": row["end_line"]},
        "top_callees": callees,
        "thrown_exceptions": sorted({f["key"] for f in facts if f["kind"] == "Exception"}
                                    | {i["exception"] for i in through}),
        "facts": [{k: v for k, v in f.items() if k not in {"symbol_id", "col"} and v is not None}
                  for f in facts if f["kind"] != "Exception"],
    }
    if parts:
        out["other_parts"] = parts
    if through:
        out["exception_paths"] = [{k: i[k] for k in ("exception", "path", "file", "line", "inferred", "throw_helper")
                                   if k in i}
                                  for i in through[:10]]
    return out
