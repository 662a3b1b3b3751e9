"""symbols_search, symbols_get_card, code_get_span, symbols_get_definition_span."""

from __future__ import annotations

import sqlite3
from typing import Any, Literal

from pydantic import Field

from roslynmap.mcp.context import open_context, repo_identity
from roslynmap.mcp.output import Guidance, RankedList, ToolOutput
from roslynmap.mcp.registry import ListParamsMixin, WorkspaceParams, tool
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.rows import SymbolCard, plain
from roslynmap.query import code, inactive, names, symbols, unity
from roslynmap.query.paths import repo_relative

SEARCH_LIMIT = (20, 100)
SPAN_LINES = (120, 400)


def clamp(name: str, requested: int | None, default: int, maximum: int, limits: dict[str, Any]) -> int:
    """Count caps clamp silently and are recorded in meta.limits_applied (DESIGN §9)."""
    value = default if requested is None else requested
    applied = max(1, min(maximum, value))
    if requested is not None and applied != requested:
        limits[name] = {"requested": requested, "applied": applied}
    return applied


class SearchParams(WorkspaceParams, ListParamsMixin):
    query: str | None = None
    kinds: list[str] | None = Field(default=None, description="e.g. [\"Class\",\"Interface\"].")
    namespace: str | None = None
    file_path: str | None = Field(default=None, description="Path prefix.")
    limit: int | None = None
    offset: int = Field(default=0, ge=0)


@tool("symbols_search", SearchParams)
def search_tool(params: SearchParams, repo_path: str) -> ToolOutput:
    """Use to find a declaration by (part of) its name or words of its signature or doc; exact name first. No
    query: browse by kinds."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    limits: dict[str, Any] = {}
    limit = clamp("max_results", params.limit, *SEARCH_LIMIT, limits)
    kinds = symbols.validate_kinds(params.kinds)
    prefix = repo_relative(ctx.root, params.file_path) if params.file_path else None
    result = symbols.search(ctx.conn, params.query, kinds, params.namespace, prefix, limit, params.offset)
    what = f"'{params.query}'" if params.query and result.mode == "fts" else "the browse filters"
    filters = {k: v for k, v in {"kinds": kinds, "namespace": params.namespace, "file_path": prefix}.items() if v}
    narrow = []
    if not kinds and len(result.by_kind) > 1:
        top = result.by_kind[0]
        narrow.append(f"kinds=[\"{top['kind']}\"] ({top['count']} of them)")
    guidance = None
    if result.total == 0:
        answer = f"No symbols match {what}" + (f" with {filters}" if filters else "") + "."
        guidance = Guidance("hint", "Try a shorter word or one CamelCase part (e.g. 'Order' instead of "
                                    "'OrderServiceImpl'), drop filters, or browse with kinds=[\"Class\"].")
        if params.query and (dormant := inactive.declaring(ctx.conn, params.query.strip())):
            # Declared only where the indexed build does not compile (`#if NET46`): not a symbol, but there.
            places = "; ".join(f"{d.rsplit(':', 1)[0]} at {r.file}:{d.rsplit(':', 1)[-1]} ({r.condition})"
                               for r, d in dormant)
            guidance = Guidance("hint", f"Declared only in code inactive in the indexed build: {places}. "
                                        "code_outline(file_path=...) lists it; code_get_span reads it.")
    else:
        answer = f"{result.total} symbols match {what}" + (f" with {filters}" if filters else "") + "."
    if params.query and result.mode == "browse":
        guidance = Guidance("hint", f"'{params.query}' has no searchable words; browsed instead.")
    actions = []
    if result.items:
        first = result.items[0]
        actions.append({"tool": "symbols_get_card", "why": f"details of {first['name']}",
                        "args": {"symbol_id": first["symbol_id"]}})
    return ToolOutput(
        answer=answer,
        data={"query": params.query, "filters": filters, "by_kind": result.by_kind},
        ranked=RankedList("results", plain(result.items), result.total, params.offset, result.by_file, narrow),
        next_actions=actions,
        guidance=guidance,
        limits_applied=limits,
        warnings=ctx.warnings,
        semantic_level=ctx.semantic_level,
        baseline_commit=ctx.commit,
        preview=[f"{i['kind']} {i['symbol_id']}  {i['file']}:{i['line']}" for i in result.items],
    )


class SymbolParams(WorkspaceParams):
    symbol_id: str
    project: str | None = None


Include = Literal["source", "callers", "callees"]
CONTEXT_LIMIT = 10  # callers and callees in a card: the direct ones, most calls first


class CardParams(SymbolParams, ListParamsMixin):
    include: list[Include] | None = None


@tool("symbols_get_card", CardParams, spans=True)
def card_tool(params: CardParams, repo_path: str) -> ToolOutput:
    """Use to understand a symbol without reading its file: signature, doc, location, facts, top callees;
    include adds its source, callers, callees in the same call."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency, params.virtual_files)
    row = names.require(ctx.conn, params.symbol_id, params.project)
    if row["external"]:
        ext = symbols.external_card(ctx.conn, row)
        uses = ", ".join(f"{c} {k}" for k, c in ext["references_by_kind"].items())
        # A symbol only a fact names (a DbSet a context inherits from a package) has no reference to list.
        used = f"the solution uses it: {uses}" if uses else "no reference in the solution names it"
        where = "declared in no indexed file (a Blazor component only its .razor file declares, a member of its " \
                "`@code`, another source generator's output, or an implicit constructor)" \
            if ext["assembly"] == symbols.UNDECLARED else f"external (assembly {ext['assembly']}, no source here)"
        return ToolOutput(
            answer=f"{ext['kind']} {ext['fqn']} is {where}; {used}.",
            data={k: v for k, v in ext.items() if k != "top_callees"},
            next_actions=[{"tool": "refs_find", "why": "where the solution uses it",
                           "args": {"symbol_id": ext["symbol_id"]}}] if uses else [],
            warnings=ctx.warnings, semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
            preview=[ext["signature"] or ext["fqn"]],
        )
    info = symbols.source_card(ctx.conn, row)
    if params.include:
        return _context_card(ctx, row, info, set(params.include))
    callees = info["top_callees"]
    loc = info["location"]
    attached, in_assets = _unity_attachments(ctx.conn, row)
    return ToolOutput(
        answer=f"{info['kind']} {info['fqn']} in {loc['file']}:{loc['line']}-{loc['end_line']} ({info['project']})"
               f"{attached}.",
        data={**{k: v for k, v in info.items() if k != "top_callees"}, **in_assets},
        ranked=RankedList("top_callees", plain(callees), len(callees), scope_param=None, page_param=None),
        next_actions=[
            {"tool": "symbols_get_definition_span", "why": "read the source",
             "args": {"symbol_id": info["symbol_id"]}},
        ],
        warnings=ctx.warnings,
        semantic_level=ctx.semantic_level,
        baseline_commit=ctx.commit,
        preview=[info["signature"] or info["fqn"]],
    )


def _unity_attachments(conn: sqlite3.Connection, row: sqlite3.Row) -> tuple[str, dict[str, Any]]:
    """A Unity component's scenes and prefabs, which no reference shows: said after the answer's location and
    listed as refs_find lists them (`unity_assets`)."""
    found = unity.asset_uses(conn, row["symbol_id"], row["kind"], row["name"]) if row["kind"] == "Class" else None
    if found is None or not found.assets:
        return "", {}
    return f"; {found.headline()}", found.as_data()


def _context_card(ctx: Any, row: Any, info: SymbolCard, include: set[str]) -> ToolOutput:
    """The card plus its direct callers and callees (data) and its source (the ranked list, cut to the
    budget first, continued with code_get_span)."""
    from roslynmap.query import graph
    from roslynmap.query.senders import senders_warning

    # Compact: what the signature, id and location already say is not repeated (fqn, name, visibility...).
    card = {k: v for k, v in info.items() if k in ("symbol_id", "kind", "signature", "doc",
                                                   "project", "location", "other_parts", "thrown_exceptions",
                                                   "facts") and v not in (None, "", [])}
    data: dict[str, Any] = {"card": card}
    said = []
    for direction in ("callers", "callees"):
        if direction not in include:
            continue
        # Callees are calls only, as graph_callees and top_callees answer them (no property reads).
        walk = (graph.callers(ctx.conn, row["symbol_id"], 1, CONTEXT_LIMIT) if direction == "callers"
                else graph.callees(ctx.conn, row["symbol_id"], 1, CONTEXT_LIMIT, calls_only=True))
        calls: dict[str, int] = {}
        end = "from" if direction == "callers" else "to"
        for edge in walk.edges:
            calls[edge[end]] = calls.get(edge[end], 0) + edge["count"]
        nodes = sorted(walk.nodes, key=lambda n: -calls.get(n.get("symbol_id") or f"?{n.get('name')}", 0))
        data[direction] = [{k: v for k, v in n.items() if v is not None and (
            k in ("symbol_id", "file", "line", "unresolved") or (k == "name" and not n.get("symbol_id")))}
            for n in nodes]
        more = sum(walk.truncated_levels.values())
        data[direction + "_total"] = len(nodes) + more
        said.append(f"{len(nodes) + more} {direction}")
    warnings = list(ctx.warnings)
    if "callers" in include and (sent := senders_warning(ctx.conn, row["symbol_id"])):
        warnings.append(sent)  # a handler's "0 callers" said as graph_callers says it (Contoso's cards)
    loc = info["location"]
    attached, in_assets = _unity_attachments(ctx.conn, row)
    data.update(in_assets)
    answer = f"{info['kind']} {info['fqn']} in {loc['file']}:{loc['line']}-{loc['end_line']} ({info['project']})"
    answer += (": " + ", ".join(said) if said else "") + attached + "."
    ranked = None
    preview = [info["signature"] or info["fqn"]]
    if "source" in include:
        lines = code.read_lines(ctx.root, row["file"], ctx.virtual_files)
        start = code.declaration_start(lines, row["line"])
        end_line = min(row["end_line"] or start, len(lines), start + SPAN_LINES[1] - 1)
        source = [{"line": n, "text": lines[n - 1]} for n in range(start, end_line + 1)]
        ranked = RankedList("source", source, len(source), scope_param=None, page_param="start_line",
                            page_base=start, elidable=(), page_tool="code_get_span",
                            page_args={"file_path": row["file"]})
        preview += [f"{item['line']:>5}  {item['text']}" for item in source]
    return ToolOutput(answer=answer, data=data, ranked=ranked, warnings=warnings,
                      semantic_level=ctx.semantic_level, baseline_commit=ctx.commit, preview=preview)


class SpanParams(WorkspaceParams):
    file_path: str
    start_line: int = Field(default=1, ge=1)
    end_line: int | None = Field(default=None, ge=1)
    max_lines: int | None = None


def span_output(ctx_root: Any, rel: str, start: int, end: int | None, max_lines: int | None,
                limits: dict[str, Any], title: str, page_tool: str | None = None,
                virtual: dict[str, str] | None = None) -> ToolOutput:
    cap = clamp("max_lines", max_lines, *SPAN_LINES, limits)
    result = code.span(ctx_root, rel, start, end, cap, virtual)
    shown_to = result.end_line
    next_actions = []
    # Continue reading when a cap cut the range asked for (or the default window); not after an explicit range.
    if shown_to < min(end or result.total_lines, result.total_lines):
        next_actions.append({"tool": "code_get_span", "why": "continue reading",
                             "args": {"file_path": rel, "start_line": shown_to + 1}})
    return ToolOutput(
        answer=f"{title}: {rel} lines {result.start_line}-{shown_to} of {result.total_lines}.",
        data={"file": rel, "start_line": result.start_line, "end_line": shown_to, "file_lines": result.total_lines},
        ranked=RankedList("lines", result.lines, len(result.lines), scope_param=None,
                          page_param="start_line", page_base=start, elidable=(),
                          page_tool=page_tool, page_args={"file_path": rel} if page_tool else {}),
        next_actions=next_actions,
        limits_applied=limits,
        preview=[f"{item['line']:>5}  {item['text']}" for item in result.lines],
    )


@tool("code_get_span", SpanParams, spans=True)
def span_tool(params: SpanParams, repo_path: str) -> ToolOutput:
    """Use to read numbered lines of a file, e.g. around a line another tool returned."""
    if params.workspace_id is None and params.consistency is None and not params.virtual_files:
        root = repo_identity(repo_path).root
        rel = repo_relative(root, params.file_path, must_exist=True)
        return span_output(root, rel, params.start_line, params.end_line, params.max_lines, {}, "Source")
    ctx = open_context(repo_path, params.workspace_id, params.consistency, params.virtual_files)
    rel = repo_relative(ctx.root, params.file_path)
    if rel not in ctx.virtual_files:
        repo_relative(ctx.root, params.file_path, must_exist=True)
    output = span_output(ctx.root, rel, params.start_line, params.end_line, params.max_lines, {},
                         "Source (virtual)" if rel in ctx.virtual_files else "Source", virtual=ctx.virtual_files)
    output.warnings = ctx.warnings
    return output


class DefinitionParams(SymbolParams):
    max_lines: int | None = None


@tool("symbols_get_definition_span", DefinitionParams, spans=True)
def definition_tool(params: DefinitionParams, repo_path: str) -> ToolOutput:
    """Use to read one symbol's source (doc comment and attributes included)."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency, params.virtual_files)
    row = names.require(ctx.conn, params.symbol_id, params.project)
    if not row["file"]:
        where = "is declared in no indexed file (source-generated or implicit)" \
            if row["assembly"] == symbols.UNDECLARED else f"is external (assembly {row['assembly']})"
        raise RoslynMapError(ErrorCode.NOT_FOUND, f"{row['fqn']} {where}: there is no source to show.",
                             f"refs_find(symbol_id=\"{row['symbol_id']}\") lists where the solution uses it.")
    lines = code.read_lines(ctx.root, row["file"], ctx.virtual_files)
    start = code.declaration_start(lines, row["line"])
    limits: dict[str, Any] = {}
    output = span_output(ctx.root, row["file"], start, row["end_line"], params.max_lines, limits,
                         f"{row['kind']} {row['fqn']}", page_tool="code_get_span", virtual=ctx.virtual_files)
    output.data["symbol_id"] = row["symbol_id"]
    if row["end_line"] and row["end_line"] > len(lines):
        output.guidance = Guidance("warning", "The file is shorter than when it was indexed; the span may "
                                              "be stale. Re-index with index_ensure_baseline.")
    output.warnings = ctx.warnings
    output.semantic_level = ctx.semantic_level
    output.baseline_commit = ctx.commit
    return output


class ResolveParams(WorkspaceParams):
    symbol_id: str | None = None
    project: str | None = None
    file_path: str | None = None
    line: int | None = Field(default=None, ge=1)
    col: int = Field(default=1, ge=1)  # UTF-16, 1-based


@tool("symbols_resolve", ResolveParams, spans=True)
def resolve_tool(params: ResolveParams, repo_path: str) -> ToolOutput:
    """Use to map the index to live files: symbol_id -> current position; file_path+line -> enclosing
    declarations with ids."""
    from roslynmap.query import resolve

    if params.symbol_id:
        ctx = open_context(repo_path, params.workspace_id, params.consistency, params.virtual_files)
        row = names.require(ctx.conn, params.symbol_id, params.project)
        data = resolve.live_location(ctx.conn, ctx.root, row, ctx.virtual_files)
        guidance: Guidance | None
        if not data["found"]:
            answer = f"{row['symbol_id']} is no longer declared in {row['file']} (indexed at line {row['line']})."
            guidance = Guidance("warning", "The index is stale for this symbol: it was moved or deleted. Search "
                                           f"for it: symbols_search(query=\"{row['name']}\"), or re-index.")
        else:
            loc = data["location"]
            state = "moved since indexing" if data["index_stale"] else "verified"
            answer = f"{row['symbol_id']} is at {loc['file']}:{loc['line']}:{loc['col']} ({state})."
            guidance = Guidance("warning", "Only a same-name declaration was found; check it is the same "
                                           "symbol.") if data["relocated"] else None
        return ToolOutput(answer=answer, data=data, guidance=guidance, warnings=ctx.warnings,
                          semantic_level=ctx.semantic_level, baseline_commit=ctx.commit)
    if not params.file_path or params.line is None:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, "Pass symbol_id, or file_path and line.",
                             "e.g. symbols_resolve(file_path=\"src/App/Program.cs\", line=12, col=5)")
    identity = repo_identity(repo_path)
    warnings: list[str] = []
    virtual: dict[str, str] = {}
    try:
        ctx = open_context(repo_path, params.workspace_id, params.consistency, params.virtual_files)
        conn, level, commit, warnings, virtual = ctx.conn, ctx.semantic_level, ctx.commit, ctx.warnings, \
            ctx.virtual_files
    except RoslynMapError as exc:
        if exc.code != ErrorCode.INDEX_NOT_AVAILABLE:
            raise
        conn, level, commit = None, "syntax_only", None
        warnings = ["No baseline: symbol ids come from a syntax-only parse (method parameter types as written)."]
    rel = repo_relative(identity.root, params.file_path)
    if rel not in virtual:
        repo_relative(identity.root, params.file_path, must_exist=True)
    data = resolve.at_position(conn, identity.root, rel, params.line, params.col, virtual)
    inner = data["chain"][-1] if data["chain"] else None
    if inner is None:
        answer = f"{rel}:{params.line} is outside any declaration (usings, namespace or top-level code)."
    else:
        where = "in the index" if inner["in_index"] else "not in the index yet"
        answer = f"{rel}:{params.line} is inside {inner['kind']} {inner['fqn']} ({where})."
    return ToolOutput(answer=answer, data=data, warnings=warnings, semantic_level=level, baseline_commit=commit,
                      preview=[f"{c['kind']} {c['symbol_id']}" for c in data["chain"]])
