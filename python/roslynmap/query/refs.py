"""refs_find: every classified reference to a symbol, filtered before paging, with exact totals."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from roslynmap.model.rows import ReferenceItem
from roslynmap.query import unbound
from roslynmap.query.excerpts import ExcerptReader
from roslynmap.query.keys import ids_of, key_of
from roslynmap.query.sql import ONCE_PER_SOURCE
from roslynmap.query.tally import tally

REF_FROM = "refs r LEFT JOIN files f ON f.id = r.file_id"


@dataclass
class RefsResult:
    items: list[ReferenceItem]
    total: int
    by_file: list[dict[str, Any]]
    by_kind: list[dict[str, Any]]
    unresolved_same_name: int


# An unbound reference that could be the symbol: the compiler named no candidates, or named it among them
# (refs.candidates is a JSON list of ids; an id holds no quote). `unbound.candidate_mark` applies the same
# rule in Python: keep the two in agreement.
COULD_BE = "(r.candidates IS NULL OR instr(r.candidates, '\"' || ? || '\"') > 0)"


def _where(
    target_key: int | None, target_id: str, name: str, kinds: list[str], resolution: str | None,
    file_prefix: str | None, projects: list[int] | None = None,
) -> tuple[str, list[Any]]:
    """`projects`: the references of those projects only (an id several projects declare, asked with `project`)."""
    args: list[Any]
    if resolution == "unresolved":
        clauses, args = [f"r.target_key IS NULL AND r.target_name = ? AND {COULD_BE}"], [name, target_id]
    else:  # a symbol no reference names has no key: `= NULL` matches nothing, as it should
        clauses, args = ["r.target_key = ?"], [target_key]
    if projects is not None:
        clauses.append(f"r.project_id IN ({','.join('?' * len(projects))})")
        args.extend(projects)
    else:
        clauses.append(ONCE_PER_SOURCE)
    if kinds:
        clauses.append(f"r.kind IN ({','.join('?' * len(kinds))})")
        args.extend(kinds)
    if file_prefix:
        clauses.append("substr(f.path, 1, ?) = ?")
        args.extend([len(file_prefix), file_prefix])
    return " AND ".join(clauses), args


def find(
    conn: sqlite3.Connection,
    root: Path,
    target_id: str,
    name: str,
    kinds: list[str],
    resolution: str | None,
    file_prefix: str | None,
    limit: int,
    offset: int,
    markup: list[ReferenceItem] | None = None,
    projects: list[int] | None = None,
) -> RefsResult:
    """References in code, then `markup` ones (markup_refs: .cshtml/.razor, after the code's, in file order).
    `projects`: only the references those projects make (one declaration of an id several projects declare)."""
    where, args = _where(key_of(conn, target_id), target_id, name, kinds, resolution, file_prefix, projects)
    rows = conn.execute(
        f"SELECT r.kind, r.from_key, r.line, r.col, r.receiver, r.target_key, r.target_name, f.path, r.candidates"
        f" FROM {REF_FROM} WHERE {where} ORDER BY f.path, r.line, r.col, r.kind LIMIT ? OFFSET ?",
        [*args, limit, offset],
    ).fetchall()
    # total, by_file and by_kind from one grouped pass over the whole filtered set
    counts = tally(conn.execute(
        f"SELECT f.path, r.kind, count(*) FROM {REF_FROM} WHERE {where} GROUP BY r.file_id, r.kind", args))
    total, by_file, by_kind = counts.total, counts.by_file, counts.by_kind
    unresolved = 0
    if resolution != "unresolved":
        unresolved = conn.execute(
            f"SELECT count(*) FROM refs r WHERE r.target_key IS NULL AND r.target_name = ? AND {COULD_BE}",
            (name, target_id)).fetchone()[0]
    excerpts = ExcerptReader(root)
    names = ids_of(conn, (r[1] for r in rows))
    items: list[ReferenceItem] = []
    for kind, from_key, line, col, receiver, resolved_key, target_name, path, candidates in rows:
        item: ReferenceItem = {"file": path, "line": line, "col": col, "kind": kind,
                                "from_symbol_id": names.get(from_key),
                                "excerpt": excerpts.line(path, line)}
        if resolved_key is None:
            item["unresolved"] = True
            item["name"] = target_name
            if receiver:
                item["receiver"] = receiver
            if mark := unbound.candidate_mark(unbound.candidates_of(candidates), {target_id}):
                item["candidate"] = mark
        items.append(item)
    if markup:
        start = max(0, offset - total)
        items.extend(markup[start:start + max(0, limit - len(items))])
        total += len(markup)
        files = {f["file"]: f["count"] for f in by_file}
        kinds_count = {k["kind"]: k["count"] for k in by_kind}
        for m in markup:
            files[m["file"]] = files.get(m["file"], 0) + 1
            kinds_count[m["kind"]] = kinds_count.get(m["kind"], 0) + 1
        by_file = [{"file": f, "count": c} for f, c in sorted(files.items(), key=lambda fc: (-fc[1], fc[0]))][:15]
        by_kind = [{"kind": k, "count": c} for k, c in sorted(kinds_count.items(), key=lambda kc: (-kc[1], kc[0]))]
    return RefsResult(items, total, by_file, by_kind, unresolved)


_GENERIC = re.compile(r"<.*>$")


def _short_type(written: str) -> str:
    return _GENERIC.sub("", written.strip()).rsplit(".", 1)[-1]


def markup_refs(conn: sqlite3.Connection, root: Path, row: dict[str, Any], kinds: list[str],
                file_prefix: str | None) -> list[ReferenceItem]:
    """References from Razor markup, which the index's code does not hold (roslyn/razor.py facts):
    `@inject T name` to a type (kind TypeRef), and tag-helper links (`asp-page`, `asp-controller` +
    `asp-action`; kind Link) to a page model, its handlers, a controller or an action."""
    out: list[ReferenceItem] = []
    excerpts = ExcerptReader(root)
    symbol_id, kind = row["symbol_id"], row["kind"]
    if kind in ("Interface", "Class", "Struct", "Record", "RecordStruct") and (not kinds or "TypeRef" in kinds):
        fqn = symbol_id[2:]
        for path, line, col, key, detail in conn.execute(
                "SELECT f.path, fa.line, fa.col, fa.key, fa.detail FROM facts fa JOIN files f ON f.id = fa.file_id"
                " WHERE fa.kind = 'RazorInject' ORDER BY f.path, fa.line"):
            written = _GENERIC.sub("", str(key).strip())
            if _short_type(written) == row["name"] and ("." not in written or written == fqn):
                out.append({"file": path, "line": line, "col": col, "kind": "TypeRef", "from_symbol_id": None,
                            "markup": "inject", "name": _detail_name(detail),
                            "excerpt": excerpts.line(path, line)})
    if not kinds:
        out.extend(_links(conn, row, excerpts))
    if file_prefix:
        out = [m for m in out if (m["file"] or "").startswith(file_prefix)]
    return out


def _detail(detail: str | None) -> dict[str, Any]:
    try:
        value = orjson.loads(detail or "{}")
    except orjson.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _detail_name(detail: str | None) -> str | None:
    name = _detail(detail).get("name")
    return name if isinstance(name, str) else None


def _links(conn: sqlite3.Connection, row: dict[str, Any], excerpts: ExcerptReader) -> list[ReferenceItem]:
    """Tag-helper links to this page model / page handler (by the page's path: `asp-page` names the page file, not
    its route, so `/Students/Index` is the page served at `/Students` and `/Courses/Edit` the one at
    `/courses/edit/{id:int}`) or controller / action (by `Controller/Action`)."""
    from roslynmap.query import surfaces  # surfaces knows the pages' routes and models

    symbol_id, container = row["symbol_id"], row.get("container_id") or ""
    pages: set[tuple[str, str, str]] = set()  # (app folder, area, page path), folded
    for route in surfaces.endpoints(conn, None, None).items:
        if route.get("source") == "razor_page" and symbol_id in (route.get("model"), route.get("handler")) \
                and (page := surfaces.page_path(route["file"] or "")):
            pages.add(_folded(page))
    controller = action = None
    if row["kind"] == "Class" and row["name"].endswith("Controller"):
        controller = row["name"][: -len("Controller")]
    elif row["kind"] == "Method" and container.endswith("Controller"):
        controller, action = container.rsplit(".", 1)[-1][: -len("Controller")], row["name"]
    if not pages and not controller:
        return []
    out: list[ReferenceItem] = []
    for path, line, col, key, detail in conn.execute(
            "SELECT f.path, fa.line, fa.col, fa.key, fa.detail FROM facts fa JOIN files f ON f.id = fa.file_id"
            " WHERE fa.kind = 'RazorLink' ORDER BY f.path, fa.line, fa.col, fa.id"):
        text, link = str(key), _detail(detail)
        if "page" in link:
            target = _linked_page(str(path), text, link.get("area"))
            hit = target is not None and any(
                target[1:] == page[1:] and target[0] in (None, page[0]) for page in pages)
        else:
            linked_controller, _, linked_action = text.partition("/")
            hit = bool(controller) and linked_controller.lower() == str(controller).lower() and (
                action is None or linked_action.lower() == action.removesuffix("Async").lower())
        if hit:
            out.append({"file": path, "line": line, "col": col, "kind": "Link", "from_symbol_id": None,
                        "markup": "link", "link": text, "excerpt": excerpts.line(path, line)})
    return out


def _folded(page: tuple[str, str | None, str]) -> tuple[str, str, str]:
    return page[0].lower(), (page[1] or "").lower(), page[2].lower()


def _linked_page(file: str, value: str, area: str | None) -> tuple[str | None, str, str] | None:
    """(app folder or None for any, area, page path), folded, of the page an `asp-page` value in `file` names, as
    ASP.NET resolves it: absolute (`/Students/Index`), or relative to the linking page's folder (`Edit`, `./Edit`,
    `../Index`), in `asp-area`'s area (`""`: none), else the linking page's. A relative name outside Pages/ (a view)
    has no page to be relative to, and one in a `Shared` folder (a layout, a partial) follows whichever page renders
    it: None."""
    from roslynmap.query import surfaces

    here = surfaces.page_path(file)
    if not value.startswith("/") and (here is None or "Shared" in file.split("/")[:-1]):
        return None
    folder, ambient, current = here if here else (None, None, "/")
    joined = value if value.startswith("/") else current.rsplit("/", 1)[0] + "/" + value
    parts: list[str] = []
    for part in joined.split("/"):
        if part == "..":
            parts = parts[:-1]
        elif part not in ("", "."):
            parts.append(part)
    chosen = ambient if area is None else area
    return folder.lower() if folder is not None else None, (chosen or "").lower(), "/" + "/".join(parts).lower()


def dispatch_targets(conn: sqlite3.Connection, symbol_id: str) -> list[tuple[str, str]]:
    """Members this one implements or overrides: (target id, "Implementation" | "Override")."""
    rows = conn.execute("SELECT DISTINCT target_key, kind FROM refs WHERE from_key = ? AND kind IN"
                        " ('Implementation', 'Override') AND target_key IS NOT NULL",
                        (key_of(conn, symbol_id),)).fetchall()
    names = ids_of(conn, (r[0] for r in rows))
    return sorted((names[r[0]], r[1]) for r in rows)
