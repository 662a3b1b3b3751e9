"""The questions an agent asks next (issue 14): diagnostics_list, code_outline, code_search_text,
stacktrace_resolve, repo_overview; and the broken-caller flags graph_callers and refs_find add in a
workspace."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from pydantic import Field

from roslynmap.mcp.context import open_context
from roslynmap.mcp.output import Guidance, RankedList, ToolOutput, plural
from roslynmap.mcp.registry import ListParamsMixin, WorkspaceParams, tool
from roslynmap.mcp.tools_symbols import clamp
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.kinds import TYPE_KINDS
from roslynmap.model.readable import is_package_source
from roslynmap.query import diagnostics, inactive, markup, names, outline, overview, stacktrace, symbols, textsearch
from roslynmap.query.context import QueryContext
from roslynmap.query.paths import repo_relative
from roslynmap.store.overlay import is_overlay

LIST_LIMIT = (50, 500)
TEXT_SECONDS = 5.0
CENTRAL = 10
ROLE_ORDER = {"web": 0, "app": 1, "library": 2, "test": 3}  # repo_overview lists entry points first


def _meta(ctx: QueryContext) -> dict[str, Any]:
    return {"warnings": ctx.warnings, "semantic_level": ctx.semantic_level, "baseline_commit": ctx.commit}


# ---------------------------------------------------------------- broken callers (workspaces)

Site = tuple[dict[str, Any], str | None, int | None, str | None]  # item, file, line, calling member


def flag_broken(ctx: QueryContext, sites: list[Site]) -> str | None:
    """In a workspace, marks each call site on a line holding a compile error of the edited solution
    `broken: true`, and each other site whose calling member holds one `in_broken_member: true` (a
    changed return type fails where the value is used, not on the call's line). Returns a warning
    counting them; None when there are none, or outside a workspace (only an overlay's diagnostics
    say what an edit broke)."""
    if ctx.workspace_id is None or not is_overlay(ctx.conn):
        return None
    lines = diagnostics.errors_at(ctx.conn, {site[1] for site in sites if site[1]})
    if not lines:
        return None
    spans = diagnostics.member_spans(ctx.conn, {site[3] for site in sites if site[3]})
    broken = inside = 0
    files: set[str] = set()
    for item, file, line, caller in sites:
        if file is not None and line in lines.get(file, ()):
            item["broken"] = True
            broken += 1
            files.add(file)
        elif caller in spans:
            path, first, last = spans[caller]
            if any(first <= error <= last for error in lines.get(path, ())):
                item["in_broken_member"] = True
                inside += 1
                files.add(path)
    parts = []
    if broken:
        parts.append(f"{plural(broken, 'site')} shown here no longer compile{'s' if broken == 1 else ''} "
                     "(broken: true)")
    if inside:
        parts.append(f"{plural(inside, 'site')} {'is' if inside == 1 else 'are'} in a member that no longer "
                     "compiles (in_broken_member: true)")
    if not parts:
        return None
    shown = sorted(files)
    return (f"{' and '.join(parts)} in this workspace ({', '.join(shown[:3])}{'…' if len(shown) > 3 else ''}): "
            f"diagnostics_list(workspace_id=\"{ctx.workspace_id}\", new_only=true) lists the errors.")


def flag_broken_nodes(ctx: QueryContext, nodes: list[dict[str, Any]]) -> str | None:
    """flag_broken for graph nodes: a node is `broken` when one of its call sites is, else
    `in_broken_member` when its own declaration holds an error (an edge without `file` is in the
    node's own file)."""
    sites: list[Site] = [(edge, edge.get("file") or node.get("file"), edge.get("line"), node.get("symbol_id"))
                         for node in nodes for edge in node.get("edges", [])]
    warning = flag_broken(ctx, sites)
    if warning:
        for node in nodes:
            flags = [(edge.pop("broken", False), edge.pop("in_broken_member", False)) for edge in node.get("edges", [])]
            if any(b for b, _ in flags):
                node["broken"] = True
            elif any(i for _, i in flags):
                node["in_broken_member"] = True
    return warning


# ---------------------------------------------------------------- diagnostics_list

class DiagnosticsParams(WorkspaceParams):
    project: str | None = None
    file_path: str | None = Field(default=None, description="Path prefix.")
    severity: Literal["error", "warning"] | None = None
    code: str | None = Field(default=None, description="e.g. \"CS1501\".")
    new_only: bool = Field(default=False, description="With workspace_id: only what the edits introduced.")
    limit: int | None = None  # default 50, max 500
    offset: int = Field(default=0, ge=0)


def _unresolved_sentence(unresolved: diagnostics.Unresolved) -> str:
    first = unresolved.projects[0]
    counts = " and ".join(plural(n, word) for n, word in ((unresolved.errors, "error"),
                                                           (unresolved.warnings, "warning")) if n)
    return (f"Not listed: {counts} of references that did not resolve, in"
            f" {plural(len(unresolved.projects), 'project')} (syntax_only, or a partial project's missing types);"
            f" project=\"{first.project}\" lists its {first.count}.")


def _counts(by_severity: dict[str, int]) -> str:
    return f"{plural(by_severity.get('error', 0), 'error')}, {plural(by_severity.get('warning', 0), 'warning')}"


@tool("diagnostics_list", DiagnosticsParams)
def diagnostics_tool(params: DiagnosticsParams, repo_path: str) -> ToolOutput:
    """Use after an edit to see what it broke (workspace_id, new_only=true), or for the baseline's compiler
    errors and warnings, from the index (no build)."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    limits: dict[str, Any] = {}
    limit = clamp("max_results", params.limit, *LIST_LIMIT, limits)
    prefix = repo_relative(ctx.root, params.file_path) if params.file_path else None
    filters = diagnostics.Filters(params.project, prefix, params.severity, params.code)
    in_workspace = ctx.workspace_id is not None and params.consistency != "committed"
    if params.new_only and not in_workspace:
        raise RoslynMapError(ErrorCode.WORKSPACE_REQUIRED, "new_only compares a workspace with its baseline.",
                             "Pass workspace_id (consistency not \"committed\"), after index_refresh_overlay; "
                             "or drop new_only.")
    every = diagnostics.listing(ctx.conn, filters)
    changes = diagnostics.listing(ctx.conn, filters, since_baseline=True) if in_workspace else None
    shown = changes if params.new_only and changes is not None else every
    page = shown.items[params.offset:params.offset + limit]
    scope = " matching the filters" if any((params.project, prefix, params.severity, params.code)) else ""
    answer = f"{_counts(every.by_severity)}{scope}"
    data: dict[str, Any] = {"by_severity": shown.by_severity, "by_code": shown.by_code[:15]}
    if changes is not None:
        answer += (f"; the workspace's edits introduced {_counts(changes.by_severity)} and fixed "
                   f"{plural(len(changes.fixed), 'diagnostic')}")
        data["new"] = changes.by_severity
        data["fixed"] = changes.fixed[:20]
    answer += "." if not params.new_only else " (listed: the new ones)."
    if every.partial_errors and not params.new_only:
        every_one = every.partial_errors == every.by_severity.get("error")
        answer += (f" {'All' if every_one else every.partial_errors} of the errors are in partial projects"
                   f"{'' if every_one else ', listed last'}: a type that did not resolve there makes its uses"
                   " errors too.")
    if every.unresolved is not None:
        answer += f" {_unresolved_sentence(every.unresolved)}"
        data["unresolved"] = {"errors": every.unresolved.errors, "warnings": every.unresolved.warnings,
                              "projects": [asdict(p) for p in every.unresolved.projects[:10]]}
    warnings = list(ctx.warnings)
    if ctx.meta.get("diagnostics_warnings") is not True:
        warnings.append("This baseline was built before warnings were recorded: only errors are listed. "
                        "index_ensure_baseline(force=true) records warnings too.")
    guidance = None
    if in_workspace and not is_overlay(ctx.conn):
        guidance = Guidance("hint", "The workspace has no indexed edits: call index_refresh_overlay after editing.")
    narrow = []
    if not params.severity and len(shown.by_severity) > 1:
        narrow.append(f"severity=\"error\" ({shown.by_severity.get('error', 0)} of them)")
    if not params.code and shown.by_code:
        top = shown.by_code[0]
        narrow.append(f"code=\"{top['code']}\" ({top['count']} of them)")
    return ToolOutput(
        answer=answer, data=data,
        ranked=RankedList("diagnostics", page, shown.total, params.offset, shown.by_file[:15], narrow,
                          elidable=("message",)),
        guidance=guidance, limits_applied=limits, **{**_meta(ctx), "warnings": warnings},
        preview=[f"{d['severity']} {d['code']} {d['file']}:{d['line']}  {d['message']}" for d in page],
    )


# ---------------------------------------------------------------- code_outline

class OutlineParams(WorkspaceParams):
    file_path: str | None = None
    symbol_id: str | None = Field(default=None, description="Or a type: its members.")
    project: str | None = None


@tool("code_outline", OutlineParams)
def outline_tool(params: OutlineParams, repo_path: str) -> ToolOutput:
    """Use instead of reading a file to see what it declares: types and members nested, with kind, lines
    and ids; with symbol_id, a type's members (all its files)."""
    if bool(params.file_path) == bool(params.symbol_id):
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, "Pass file_path or symbol_id (one of them).",
                             "e.g. code_outline(file_path=\"src/App/OrderService.cs\") or "
                             "code_outline(symbol_id=\"T:App.OrderService\").")
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    if params.file_path:
        rel = repo_relative(ctx.root, params.file_path)
        items = outline.file_outline(ctx.conn, rel)
        if items is None:
            raise RoslynMapError(ErrorCode.NOT_FOUND, f"'{rel}' is not an indexed source file.",
                                 "Pass a .cs file of the solution, e.g. one a symbols_search result names.")
        types = sum(1 for i in items if i["kind"] in TYPE_KINDS)
        answer = f"{rel} declares {plural(types, 'type')} and {plural(len(items) - types, 'member')}."
        data: dict[str, Any] = {"file": rel}
        if dormant := inactive.regions(ctx.conn, rel):
            # Not symbols (nothing binds there), but the file is not what its symbols alone say.
            verb = "declares" if len(dormant) == 1 else "declare"
            answer += (f" {plural(len(dormant), 'region')} inactive in the indexed build ({dormant[0].condition}"
                       f"{', ...' if len(dormant) > 1 else ''}) {verb} {sum(r.declared for r in dormant)} more,"
                       " not indexed (inactive).")
            data["inactive"] = [{"line": r.line, "end_line": r.end_line, "condition": r.condition,
                                 "declares": list(r.declares),
                                 **({"declared": r.declared} if r.declared > len(r.declares) else {})}
                                for r in dormant]
    else:
        wanted = params.symbol_id or ""
        row = names.resolve(ctx.conn, wanted, params.project)
        if row is None:
            raise RoslynMapError(ErrorCode.NOT_FOUND, f"No declared symbol is named '{wanted}'.",
                                 f"Search with symbols_search(query=\"{wanted.rsplit('.', 1)[-1]}\").",
                                 candidates=symbols.suggest(ctx.conn, wanted) or None)
        if row["kind"] not in TYPE_KINDS:
            raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"{row['symbol_id']} is a {row['kind']}, not a type.",
                                 f"Pass its type: symbol_id=\"{row['container_id']}\"." if row["container_id"]
                                 else "Pass a type id (T:...), or file_path.")
        items = outline.type_members(ctx.conn, row["symbol_id"], row["project_id"])
        answer = f"{row['kind']} {row['fqn']} ({row['file']}:{row['line']}-{row['end_line']}) declares " \
                 f"{plural(len(items), 'member')}."
        data = {"type": {"symbol_id": row["symbol_id"], "kind": row["kind"], "file": row["file"],
                         "line": row["line"], "end_line": row["end_line"]}}
    return ToolOutput(
        answer=answer, data=data,
        ranked=RankedList("declarations", items, len(items), scope_param=None, page_param=None,
                          elidable=("signature",)),
        **_meta(ctx),
        preview=[f"{'  ' * i['depth']}{i['kind']} {i['name']}  {i['line']}-{i['end_line']}" for i in items],
    )


# ---------------------------------------------------------------- code_search_text

class TextParams(WorkspaceParams, ListParamsMixin):
    pattern: str
    regex: bool = Field(default=False, description="pattern is a Python regex.")
    case_sensitive: bool = False
    kind: Literal["code", "string", "comment"] | None = None
    file_path: str | None = Field(default=None, description="Path prefix.")
    limit: int | None = None  # default 50, max 500
    offset: int = Field(default=0, ge=0)


@tool("code_search_text", TextParams)
def text_tool(params: TextParams, repo_path: str) -> ToolOutput:
    """Use for text that is not a symbol (SQL, messages, comments): literal or regex search of the indexed
    sources; each match is in code, a string or a comment (kind)."""
    pattern = textsearch.compile_pattern(params.pattern, params.regex, params.case_sensitive)
    ctx = open_context(repo_path, params.workspace_id, params.consistency, params.virtual_files)
    limits: dict[str, Any] = {}
    limit = clamp("max_results", params.limit, *LIST_LIMIT, limits)
    prefix = repo_relative(ctx.root, params.file_path) if params.file_path else None
    # Deleted files of a workspace stay in its file list; reading them finds nothing.
    paths = [r[0] for r in ctx.conn.execute("SELECT path FROM files ORDER BY path")
             if (prefix is None or r[0].startswith(prefix)) and not is_package_source(r[0])]
    found = textsearch.search(ctx.root, paths, pattern, params.kind, limit, params.offset, TEXT_SECONDS,
                              ctx.virtual_files)
    # A match in a branch the indexed build leaves out (`#if NET46`) says so: no symbol or reference is there.
    dormant: dict[str, list[inactive.InactiveRegion]] = {}
    for r in inactive.regions(ctx.conn) if found.items else []:
        dormant.setdefault(r.file, []).append(r)
    for item in found.items:
        if region := next((r for r in dormant.get(item["file"], []) if r.holds(item["line"])), None):
            item["inactive"] = region.condition
    what = f"{'/' + params.pattern + '/' if params.regex else repr(params.pattern)}"
    answer = (f"{plural(found.total, 'match')} of {what}" + (f" in {params.kind}" if params.kind else "")
              + (f" in {len(found.by_file)} of {plural(found.files_total, 'indexed file')}."
                 if found.files_scanned == found.files_total else
                 f" in {plural(len(found.by_file), 'file')} ({found.files_scanned} of {found.files_total} indexed "
                 "files searched)."))
    warnings = list(ctx.warnings)
    if found.timed_out:
        warnings.append(f"Stopped after {TEXT_SECONDS:g} s: {found.files_total - found.files_scanned} files were not "
                        "searched; narrow with file_path.")
    if found.unreadable:
        warnings.append(f"{plural(len(found.unreadable), 'indexed file')} could not be read (deleted, or outside "
                        f"the repository): {', '.join(found.unreadable[:3])}.")
    narrow = []
    if not params.kind and len(found.by_kind) > 1:
        top = max(found.by_kind.items(), key=lambda kc: kc[1])
        narrow.append(f"kind=\"{top[0]}\" ({top[1]} of them)")
    return ToolOutput(
        answer=answer, data={"by_kind": found.by_kind},
        ranked=RankedList("matches", found.items, found.total, params.offset, found.by_file[:15], narrow,
                          elidable=("text",)),
        limits_applied=limits, **{**_meta(ctx), "warnings": warnings},
        preview=[f"{m['file']}:{m['line']}  [{m['kind']}] {m['text']}" for m in found.items],
    )


# ---------------------------------------------------------------- stacktrace_resolve

def _frames_answer(total: int, in_solution: list[int]) -> str:
    """The frames table names each frame's symbol and line: the answer only counts them (and says which
    frame is the innermost of the solution's, when library frames come first)."""
    if len(in_solution) == total:
        return f"{plural(total, 'frame')}, all in the solution."
    if not in_solution:
        return f"{plural(total, 'frame')}, none in the solution."
    return (f"{plural(total, 'frame')}: {len(in_solution)} in the solution (the innermost is frame "
            f"{in_solution[0]}), {total - len(in_solution)} outside it.")


class TraceParams(WorkspaceParams):
    stack_trace: str


@tool("stacktrace_resolve", TraceParams)
def trace_tool(params: TraceParams, repo_path: str) -> ToolOutput:
    """Use when given a .NET stack trace: each frame mapped to its symbol_id and file:line (async, lambda
    and generic frames too)."""
    trace = stacktrace.parse(params.stack_trace)
    if not trace.frames:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, "No stack frame found (lines starting with 'at ').",
                             "Paste the trace as .NET prints it, e.g. '   at Shop.OrderService.Place(Order o) in "
                             "/src/Shop/OrderService.cs:line 42'.")
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    frames = stacktrace.resolve(ctx.conn, trace, ctx.root)
    mine = [f for f in frames if f.get("symbol_id")]
    answer = _frames_answer(len(frames), [int(f["frame"]) for f in mine])
    warnings = list(ctx.warnings)
    if trace.unparsed:
        warnings.append(f"{plural(trace.unparsed, 'line')} starting with 'at ' could not be read as frames.")
    actions = [{"tool": "code_get_span", "why": "read the innermost solution frame",
                "args": {"file_path": mine[0]["file"], "start_line": max(1, mine[0]["line"] - 5), "end_line":
                         mine[0]["line"] + 5}}] if mine else []
    return ToolOutput(
        answer=answer, data={"exceptions": trace.exceptions},
        ranked=RankedList("frames", frames, len(frames), scope_param=None, page_param=None),
        next_actions=actions, **{**_meta(ctx), "warnings": warnings},
        preview=[f"#{f['frame']} {f.get('symbol_id') or f['method']}"
                 + (f"  {f['file']}:{f['line']}" if f.get("file") else "") for f in frames],
    )


# ---------------------------------------------------------------- repo_overview

class OverviewParams(WorkspaceParams):
    offset: int = Field(default=0, ge=0)  # page through the projects


@tool("repo_overview", OverviewParams)
def overview_tool(params: OverviewParams, repo_path: str) -> ToolOutput:
    """Use first on an unfamiliar repository: projects and roles (web, app, library, test), entry points,
    surface counts, central types."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    entries = overview.entry_points(ctx.conn)
    projects = overview.projects(ctx.conn, entries)
    counts = overview.surface_counts(ctx.conn, markup.config_reads(ctx.conn, ctx.root))
    central = overview.central_types(ctx.conn, CENTRAL, baseline=params.workspace_id is None)
    roles: dict[str, int] = {}
    for project in projects:
        roles[project["role"]] = roles.get(project["role"], 0) + 1
    answer = (f"{plural(len(projects), 'project')} ({', '.join(f'{n} {r}' for r, n in sorted(roles.items()))}), "
              f"{plural(len(entries), 'entry point')}, {plural(counts['endpoints'], 'endpoint')}, "
              f"{plural(counts['config_keys'], 'config key')}, {plural(counts['db_tables'], 'table')}, "
              f"{plural(counts['di_registrations'], 'DI registration')}.")
    actions = [{"tool": "code_outline", "why": f"what {central[0]['symbol_id']} declares",
                "args": {"symbol_id": central[0]["symbol_id"]}}] if central else []
    # Projects are the list that grows (47 in a modular monolith): ranked entry points first, and paged.
    ranked = sorted(projects, key=lambda p: (ROLE_ORDER.get(p["role"], len(ROLE_ORDER)), p["name"]))
    page = ranked[params.offset:]
    return ToolOutput(
        answer=answer,
        data={"entry_points": entries[:20], "counts": counts, "central_types": central},
        ranked=RankedList("projects", page, len(projects), offset=params.offset, scope_param=None),
        next_actions=actions, **_meta(ctx),
        preview=[f"{p['role']:<8} {p['name']}  {p['path']}" for p in page]
        + [f"central {t['symbol_id']} (used by {t['used_by_types']} types)" for t in central],
    )
