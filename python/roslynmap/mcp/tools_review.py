"""tests_find, impact_analyze, diff_semantic, symbols_unused, projects_graph: changing and reviewing code."""

from __future__ import annotations

import sqlite3
from typing import Any

from pydantic import Field

from roslynmap.mcp.context import open_context
from roslynmap.mcp.output import Guidance, RankedList, ToolOutput, plural
from roslynmap.mcp.registry import ListParamsMixin, WorkspaceParams, tool
from roslynmap.mcp.tools_symbols import SymbolParams, clamp
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.query import diff, generated, markup, names, review, surfaces, symbols, unity, unused
from roslynmap.query.context import QueryContext
from roslynmap.store.overlay import is_overlay
from roslynmap.store.paths import baselines_dir
from roslynmap.store.reader import open_baseline

DEPTH = (1, 6)
WALK_PER_LEVEL = 2000  # callers walked per level: what is counted (the listing is cut by the budget, not the walk)
SECTION = 10  # impact_analyze: entries per section besides the callers (an overview: tests_find lists all)


UNBOUND_WARNING = ("Calls the compiler could not bind (a missing package or reference, or a call on `dynamic`, which "
                   "only the run time resolves) are not walked; "
                   "graph_callers(symbol_id=\"{symbol_id}\", depth=2) lists them.")


class ReachParams(SymbolParams):
    symbol_id: str
    depth: int | None = None  # caller levels, 1..6 (default 4)


def _target(ctx: QueryContext, params: ReachParams) -> sqlite3.Row:
    row = names.resolve(ctx.conn, params.symbol_id, params.project)
    if row is None:
        raise RoslynMapError(ErrorCode.NOT_FOUND, f"No declared symbol is named '{params.symbol_id}'.",
                             f"Search with symbols_search(query=\"{params.symbol_id.rsplit('.', 1)[-1]}\").",
                             candidates=symbols.suggest(ctx.conn, params.symbol_id) or None)
    return row


def _asked(params: ReachParams, row: sqlite3.Row) -> list[int] | None:
    """The declaration asked about, when `project` picks one of an id several projects declare."""
    return [row["project_id"]] if params.project and row["project_id"] is not None else None


def _depth(params: ReachParams, limits: dict[str, Any]) -> int:
    requested = 4 if params.depth is None else params.depth
    applied = max(DEPTH[0], min(DEPTH[1], requested))
    if applied != requested:
        limits["max_depth"] = {"requested": requested, "applied": applied}
    return applied


def _no_tests_guidance(ctx: QueryContext) -> Guidance | None:
    if ctx.conn.execute("SELECT 1 FROM facts WHERE kind = 'Test' LIMIT 1").fetchone():
        return None
    return Guidance("warning", "The index records no test method (no [Fact]/[Theory]/[Test]/[TestCase]/"
                    "[TestMethod]): the test projects are not in the indexed solution, or the baseline predates "
                    "test facts (index_ensure_baseline(force=true)).")


@tool("tests_find", ReachParams)
def tests_tool(params: ReachParams, repo_path: str) -> ToolOutput:
    """Use to pick the tests to run after changing a symbol: tests reaching it through calls or an HTTP
    route, nearest first, with the path."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    row = _target(ctx, params)
    limits: dict[str, Any] = {}
    depth = _depth(params, limits)
    hits, reached = review.tests_reaching(ctx.conn, row["symbol_id"], row["kind"], depth, WALK_PER_LEVEL,
                                          _asked(params, row))
    items = [h.item() for h in hits]
    functional = sum(1 for h in hits if h.route)
    reach = "reaches" if len(hits) == 1 else "reach"
    answer = (f"{plural(len(hits), 'test')} {reach} {row['fqn']} within depth {depth}"
              + (f" ({functional} functional, through a route)" if functional else "") + reached.unbound_note()
              + ".")
    warnings = list(ctx.warnings)
    if reached.truncated:
        warnings.append(f"{reached.truncated} callers were left out of the walk (over {WALK_PER_LEVEL} per level): "
                        "tests behind them are missing.")
    if reached.unbound:
        warnings.append(UNBOUND_WARNING.format(symbol_id=row["symbol_id"]))
    guidance = _no_tests_guidance(ctx)
    if guidance is None and not hits and not reached.unbound:
        guidance = Guidance("hint", f"No test reaches it within depth {depth}: raise depth, or it is untested.")
    by_project: dict[str, int] = {}
    for hit in hits:
        project = review.project_of_files(ctx.conn, [hit.file or ""]).get(hit.file or "", "?")
        by_project[project] = by_project.get(project, 0) + 1
    return ToolOutput(
        answer=answer,
        data={"symbol_id": row["symbol_id"], "depth": depth, "by_project": by_project},
        ranked=RankedList("tests", items, len(items), scope_param=None, page_param=None, elidable=("via",)),
        warnings=warnings, guidance=guidance, limits_applied=limits,
        semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{i['framework']:<6} {i['test']}  ({i['file']}:{i['line']})" for i in items],
    )


@tool("impact_analyze", ReachParams)
def impact_tool(params: ReachParams, repo_path: str) -> ToolOutput:
    """Use before changing a symbol's signature or behaviour: its callers by level (tests under tests),
    implementations, references, endpoints, tests and projects affected, in one call."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    row = _target(ctx, params)
    sid = row["symbol_id"]
    limits: dict[str, Any] = {}
    depth = _depth(params, limits)
    hits, reached = review.tests_reaching(ctx.conn, sid, row["kind"], depth, WALK_PER_LEVEL, _asked(params, row))
    down, up = review.implementations(ctx.conn, sid)
    targets = reached.roots + down
    by_kind, by_file = review.refs_by_kind(ctx.conn, targets)
    callers = {m: d for m, d in reached.depth.items() if d > 0}
    where = review.locate(ctx.conn, [*callers, *down, *up])
    # Each declaration reached of an id several projects declare (every top-level Program's `<Main>$`) is a caller.
    placed = review.places(ctx.conn, reached, where, callers)
    # A generated member is not indexed: it stands where its generator maps the use (a Razor markup line), else
    # nowhere.
    for member, use in reached.generated_by.items():
        if member in placed and not where.get(member):
            path, line = generated.place(use.mapped) if use.mapped else (None, None)
            placed[member] = [{"file": path, "line": line}]
    # `calls`: the member each caller calls on the way, left out when it is the symbol itself (most depth-1
    # callers): said per row, it was half of a hub's answer.
    # A caller that is a test is listed once, under `tests` (with its depth and path): on a well-tested
    # symbol most callers are tests, and listing them twice was a third of the answer.
    tests_calling = {h.test for h in hits} & set(callers)
    caller_items: list[dict[str, Any]] = [
        {"symbol_id": m, "depth": d, **place,
         # (the way on is kept per id: with several declarations reached, it is not said which one takes it)
         **({"calls": reached.next_hop[m]} if reached.next_hop.get(m) not in (None, sid) and len(placed[m]) == 1
            else {}),
         **({"candidate": "only"} if m in reached.through_unbound else {}),
         **({"through": "mediator"} if m in reached.through_mediator else {}),
         **({"through": "queue"} if m in reached.through_queue else {}),
         **({"through": "subscription"} if m in reached.through_subscription else {}),
         **({"through": "topic"} if m in reached.through_topic else {}),
         **({"through": "generated", "generator": generated.short(reached.generated_by[m].generator)}
            if m in reached.generated_by else {})}
        for m, d in sorted(callers.items(), key=lambda kv: (kv[1], kv[0])) if m not in tests_calling
        for place in placed[m]]
    # Affected: the symbol's own file, every file referencing it, its callers' and implementations' files.
    files: dict[str, int] = dict(by_file)
    caller_places = [p for m in callers for p in placed[m]]
    caller_files = [p["file"] for p in caller_places if p["file"]]
    for path in [row["file"], *caller_files, *(where.get(m, {}).get("file") for m in down)]:
        if path:
            files.setdefault(path, 0)
    owner = review.project_of_files(ctx.conn, [*files, *(h.file for h in hits if h.file)])
    projects: dict[str, dict[str, int]] = {}

    def tally(path: str | None, what: str) -> None:
        entry = projects.setdefault(owner.get(path or "", "?"), {"files": 0, "callers": 0, "tests": 0})
        entry[what] += 1

    for path in files:
        tally(path, "files")
    for path in caller_files:
        tally(path, "callers")
    for hit in hits:
        tally(hit.file, "tests")
    endpoints = [{"endpoint": f"{r['method']} {r['route']}", "handler": r["handler"]}
                 for r in surfaces.endpoints(ctx.conn, None, None).items if review.route_reaches(ctx.conn, r, reached)]
    refs_total = sum(by_kind.values())
    # Calls through the interface member it implements name that member, not this one: said, not a bare 0.
    through = sum(review.refs_by_kind(ctx.conn, up)[0].values()) if up else 0
    through_note = f" (+ {through} to the member{'s' if len(up) > 1 else ''} it implements)" if through else ""
    made = sum(1 for m in callers if m in reached.generated_by)
    of_them = ", ".join(part for part in (f"{len(tests_calling)} of them tests" if tests_calling else "",
                                          f"{made} in source-generated code" if made else "") if part)
    of_them = f" ({of_them})" if of_them else ""
    overriding = f"{len(down)} implementations/overrides, " if down else ""
    answer = (f"Changing {row['fqn']} touches {plural(len(caller_places), 'caller')}{of_them} within depth {depth}, "
              f"{overriding}{plural(refs_total, 'reference')} in {plural(len(by_file), 'file')}{through_note}, "
              f"{plural(len(files), 'file')} of {plural(len(projects), 'project')} in all; "
              f"{plural(len(endpoints), 'endpoint')} and {plural(len(hits), 'test')} reach it{reached.unbound_note()}.")
    warnings = list(ctx.warnings)
    if up:
        warnings.append(f"It implements or overrides {', '.join(up[:3])}: a signature change must change "
                        f"{'them' if len(up) > 1 else 'it'} too.")
    if reached.truncated:
        warnings.append(f"{reached.truncated} callers were left out (over {WALK_PER_LEVEL} per level).")
    if reached.unbound:
        warnings.append(UNBOUND_WARNING.format(symbol_id=sid))
    data = {
        "symbol_id": sid, "kind": row["kind"], "depth": depth,
        "implementations": [{"symbol_id": m, **{k: where.get(m, {}).get(k) for k in ("file", "line")}}
                            for m in down[:SECTION]],
        "implements": up,
        "references_by_kind": dict(sorted(by_kind.items(), key=lambda kv: (-kv[1], kv[0]))),
        "projects": dict(sorted(projects.items())),
        "files": [{"file": f, "references": c}
                  for f, c in sorted(files.items(), key=lambda fc: (-fc[1], fc[0]))[:SECTION]],
        "endpoints": endpoints[:SECTION],
        "tests": [h.item() for h in hits[:SECTION]],
    }
    # The sections are capped (the answer has their totals), so the ranked callers keep the budget.
    cut = {k: n for k, n in (("implementations", len(down)), ("files", len(files)), ("endpoints", len(endpoints)),
                             ("tests", len(hits))) if n > SECTION}
    if cut:
        sections = ", ".join(f"{k} ({n} in all)" for k, n in cut.items())
        warnings.append(f"Sections cut to their first {SECTION}: {sections}. tests_find and refs_find list "
                        "them in full.")
    # A project's zero counts go unsaid (`UnitTests: {files=7, callers=14, tests=13}`, `Core: {files=1}`).
    data["projects"] = {p: {k: n for k, n in counts.items() if n} for p, counts in data["projects"].items()}
    return ToolOutput(
        answer=answer, data=data,
        ranked=RankedList("callers", caller_items, len(caller_items), scope_param=None, page_param=None),
        warnings=warnings, guidance=_no_tests_guidance(ctx), limits_applied=limits,
        semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{'  ' * (int(i['depth']) - 1)}{i['symbol_id']}" for i in caller_items],
    )


class DiffParams(WorkspaceParams):
    base_commit: str | None = Field(default=None, description="sha or prefix")
    head_commit: str | None = Field(default=None, description="default: HEAD")


def _baseline_of(ctx: QueryContext, commit: str) -> tuple[str, sqlite3.Connection]:
    """The baseline of a commit (full sha or a unique prefix) among those built for this repository."""
    wanted = commit.strip().lower()
    found = sorted(p for p in baselines_dir(ctx.repo.repo_id).glob("*.db") if p.stem.startswith(wanted)) \
        if wanted else []
    if len(found) != 1:
        have = sorted(p.stem[:12] for p in baselines_dir(ctx.repo.repo_id).glob("*.db"))
        code = ErrorCode.AMBIGUOUS if found else ErrorCode.NOT_FOUND
        raise RoslynMapError(code, f"{'Several baselines match' if found else 'No baseline for'} commit '{commit}'.",
                             "Pass one of the commits with a baseline: " + (", ".join(have) or "none") +
                             " (index_ensure_baseline builds one for HEAD).")
    return found[0].stem, open_baseline(found[0])


@tool("diff_semantic", DiffParams)
def diff_tool(params: DiffParams, repo_path: str) -> ToolOutput:
    """Use to review a change: symbols, endpoints, config keys, tables and DI registrations added, removed
    or changed since base_commit or in a workspace."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    files: list[str] | None = None
    if params.base_commit:
        base, before = _baseline_of(ctx, params.base_commit)
        if params.head_commit:
            head, after = _baseline_of(ctx, params.head_commit)
        else:
            head, after = ctx.commit if not params.workspace_id else f"workspace {params.workspace_id}", ctx.conn
    elif params.workspace_id and params.consistency != "committed":
        base, before = ctx.commit, open_baseline(ctx.baseline)
        head, after = f"workspace {params.workspace_id}", ctx.conn
        files = [r[0] for r in ctx.conn.execute("SELECT path FROM ov.overlay_files")] if is_overlay(ctx.conn) else []
    else:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, "Nothing to compare: pass base_commit, or workspace_id.",
                             "diff_semantic(base_commit=\"<sha with a baseline>\") compares it with HEAD's baseline; "
                             "diff_semantic(workspace_id=\"agent-1\") compares a workspace with its baseline.")
    changes = diff.symbols(before, after, files)
    surface = diff.surface_changes(before, after)
    counts = {k: len(v) for k, v in changes.items()}
    items = [{"change": change, **item} for change in ("signature_changed", "removed", "added")
             for item in changes[change]]
    surface_text = "; ".join(f"{section}: +{len(v['added'])} -{len(v['removed'])}" for section, v in surface.items())
    answer = (f"{base[:12]} → {head[:20]}: {counts['added']} symbols added, {counts['removed']} removed, "
              f"{counts['signature_changed']} signatures changed" + (f"; {surface_text}" if surface_text else
                                                                     "; no surface changed") + ".")
    return ToolOutput(
        answer=answer, data={"base": base, "head": head, "counts": counts, "surfaces": surface},
        ranked=RankedList("symbols", items, len(items), scope_param=None, page_param=None, elidable=("signature",)),
        warnings=ctx.warnings, semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{i['change']:<17} {i['symbol_id']}" for i in items],
    )


class UnusedParams(WorkspaceParams, ListParamsMixin):
    project: str | None = None
    kinds: list[str] | None = None
    limit: int | None = None  # default 100, max 500
    offset: int = Field(default=0, ge=0)


@tool("symbols_unused", UnusedParams)
def unused_tool(params: UnusedParams, repo_path: str) -> ToolOutput:
    """Use to find dead code: symbols nothing in the solution references; entry points, tests, overrides
    and public API are counted apart (`excluded`)."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    limits: dict[str, Any] = {}
    limit = clamp("max_results", params.limit, 100, 500, limits)
    kinds = symbols.validate_kinds(params.kinds)
    if params.project and not ctx.conn.execute("SELECT 1 FROM projects WHERE name = ?", (params.project,)).fetchone():
        have = [r[0] for r in ctx.conn.execute("SELECT name FROM projects ORDER BY name")]
        raise RoslynMapError(ErrorCode.NOT_FOUND, f"No project named '{params.project}'.",
                             f"Projects: {', '.join(have)}.")
    is_unity = unity.is_unity_baseline(ctx.conn)
    found = unused.unused(ctx.conn, params.project, kinds, markup.names(ctx.conn, ctx.root),
                          unity.event_names(ctx.conn, ctx.root) if is_unity else frozenset(), ctx.root)
    page = found.items[params.offset:params.offset + limit]
    excluded = sum(found.excluded.values())
    answer = f"{len(found.items)} symbols have no reference in the solution" + \
        (f" (project {params.project})" if params.project else "") + \
        (f"; {excluded} more without references were left out as entry points or reflection." if excluded else ".")
    warnings = list(ctx.warnings)
    if found.skipped_projects:
        warnings.append(f"Not judged (syntax_only: references unknown): {', '.join(found.skipped_projects)}.")
    by_file = review.count_by(found.items, "file")
    return ToolOutput(
        answer=answer,
        data={"excluded": {k: {"count": v, "rule": unused.EXCLUSIONS[k],
                               **({"attributes": found.attributes} if k == "found_by_attribute" else {}),
                               **({"generators": found.generators} if k == "generated_code" else {}),
                               **({"why": found.unity_kept} if k == "unity_object" else {})}
                           for k, v in sorted(found.excluded.items())},
              **({"unity_assets": _unity_assets_read(ctx.conn)} if is_unity else {}),
              "not_detected": "reflection by name, types made by assembly scanning (plugins, GetExports<T>), "
                              "serializer-only fields, attributes read by reflection through a Type variable, "
                              "callers outside the solution"
                              + ("; Unity: methods called by a string (SendMessage, Invoke, StartCoroutine(\"X\")), "
                                 "components added by AddComponent(Type) or a type name" if is_unity else "")},
        ranked=RankedList("unused", page, len(found.items), params.offset, by_file, scope_param=None),
        warnings=warnings, limits_applied=limits, semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{i['kind']:<11} {i['symbol_id']}" for i in page],
    )


def _unity_assets_read(conn: sqlite3.Connection) -> str:
    """What symbols_unused read to judge MonoBehaviours and ScriptableObjects: an unattached one is listed only when
    every asset was read."""
    scan = unity.asset_scan(conn)
    if scan is None:
        return ("Assets were not read when this baseline was built: every MonoBehaviour and ScriptableObject is left "
                "out (index --force reads them).")
    said = (f"{scan.text} text assets read (.unity, .prefab, .asset, .controller, .playable...) for the scripts they "
            "attach by the guid of each script's .cs.meta: a MonoBehaviour or ScriptableObject of the game's own "
            "assemblies none attaches, that no code names and no [CreateAssetMenu] marks, is listed with its messages "
            "and serialized fields")
    if scan.unseen:
        said += f". Not read: {scan.unseen_said()}; a class none of the others attaches may be attached there, so it " \
                "is left out (unity_object, why unseen_assets)"
    elif scan.not_read:
        said += f". Not read: {scan.unseen_said()}, so the listing stands"
    return said + "."


@tool("projects_graph", WorkspaceParams)
def projects_graph_tool(params: WorkspaceParams, repo_path: str) -> ToolOutput:
    """Use to see how projects depend on each other: kind, framework, references both ways, NuGet
    packages and versions (conflicts flagged)."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    items = review.dependency_graph(ctx.conn)
    packages = review.package_versions(items)
    conflicts = [p["name"] for p in packages if p.get("conflict")]
    edges = sum(len(i["references"]) for i in items)
    answer = (f"{plural(len(items), 'project')}, {plural(edges, 'project reference')}, "
              f"{plural(len(packages), 'package')}"
              + (f" ({len(conflicts)} at several versions: {', '.join(conflicts[:5])})" if conflicts else "") + ".")
    return ToolOutput(
        answer=answer, data={"packages": packages},
        ranked=RankedList("projects", items, len(items), scope_param=None, page_param=None),
        warnings=ctx.warnings, semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{i['project']} ({i['output_kind']}) -> {', '.join(i['references']) or '-'}" for i in items],
    )

