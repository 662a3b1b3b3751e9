"""refs_find, graph_callers, graph_callees, types_hierarchy."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from roslynmap.mcp.context import open_context
from roslynmap.mcp.output import Guidance, RankedList, ToolOutput
from roslynmap.mcp.registry import ListParamsMixin, tool
from roslynmap.mcp.tools_symbols import SymbolParams, clamp
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.kinds import REFERENCE_KINDS, TYPE_KINDS
from roslynmap.query import graph, refs, symbols, types
from roslynmap.query.paths import repo_relative

REFS_LIMIT = (50, 500)
DEPTH = (1, 6)
PER_LEVEL = (50, 200)


def validate_ref_kinds(kinds: list[str] | None) -> list[str]:
    by_lower = {k.lower(): k for k in REFERENCE_KINDS}
    out = []
    for kind in kinds or []:
        known = by_lower.get(kind.strip().lower())
        if known is None:
            raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"Unknown reference kind '{kind}'.",
                                 f"Valid kinds: {', '.join(REFERENCE_KINDS)}.")
        out.append(known)
    return out


class RefsParams(SymbolParams, ListParamsMixin):
    kind: list[str] | None = Field(default=None, description="Only these kinds: Call, Read, Write, Instantiate, "
                                   "Override, Implementation, TypeRef.")
    resolution_state: Literal["resolved", "unresolved"] | None = Field(
        default=None, description="'unresolved': references by name that the compiler could not bind.")
    file_path: str | None = Field(default=None, description="Repo-relative path prefix, e.g. \"src/Api/\".")
    limit: int | None = Field(default=None, description="Max references (default 50, max 500).")
    offset: int = Field(default=0, ge=0, description="Skip this many (paging).")


@tool("refs_find", RefsParams)
def refs_tool(params: RefsParams, repo_path: str) -> ToolOutput:
    """Use before changing, renaming or deleting a symbol: every reference to it, classified Call /
    Read / Write / Instantiate / Override / Implementation / TypeRef, with file, line, column, the
    referencing symbol and a one-line excerpt. Filters (kind, file_path, resolution_state) apply
    before the limit; total and by_file cover the full set. For callers through an interface or base
    member, follow `must_follow`, or use graph_callers which includes them."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    row = symbols.resolve(ctx.conn, params.symbol_id, params.project)
    limits: dict[str, Any] = {}
    limit = clamp("max_references", params.limit, *REFS_LIMIT, limits)
    kinds = validate_ref_kinds(params.kind)
    prefix = repo_relative(ctx.root, params.file_path) if params.file_path else None
    result = refs.find(ctx.conn, ctx.root, row["symbol_id"], row["name"], kinds, params.resolution_state,
                       prefix, limit, params.offset)
    narrow = [f"kind=\"{k['kind']}\" ({k['count']} of them)" for k in result.by_kind[:2]] if not kinds and \
        len(result.by_kind) > 1 else []
    counts = ", ".join(f"{k['count']} {k['kind']}" for k in result.by_kind)
    state = "unresolved references named" if params.resolution_state == "unresolved" else "references to"
    answer = f"{result.total} {state} {row['fqn']}" + (f" ({counts})" if counts else "") + "."
    guidance = None
    warnings = list(ctx.warnings)
    dispatched = refs.dispatch_targets(ctx.conn, row["symbol_id"])
    members = [t for t, _ in dispatched if not t.startswith("T:")]
    if members and params.resolution_state != "unresolved":
        guidance = Guidance("must_follow", f"{row['name']} implements/overrides {', '.join(members[:3])}: calls made "
                            f"through {'them' if len(members) > 1 else 'it'} are not listed here. Run refs_find("
                            f"symbol_id=\"{members[0]}\") too, or graph_callers which follows dispatch.")
    if result.unresolved_same_name and params.resolution_state != "unresolved":
        warnings.append(f"{result.unresolved_same_name} unresolved references are named '{row['name']}' and may "
                        "point here: resolution_state=\"unresolved\" lists them.")
    if result.total == 0 and guidance is None:
        guidance = Guidance("hint", "No references in the indexed solution" + (" with these filters" if kinds or
                            prefix else "") + ". It may be used by reflection, DI or outside the solution; "
                            "check surfaces or search its name with symbols_search.")
    return ToolOutput(
        answer=answer,
        data={"symbol": {"symbol_id": row["symbol_id"], "kind": row["kind"], "file": row["file"],
                         "line": row["line"]}, "by_kind": result.by_kind},
        ranked=RankedList("references", result.items, result.total, params.offset, result.by_file, narrow),
        guidance=guidance, warnings=warnings, limits_applied=limits,
        semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{i['kind']:<12} {i['file']}:{i['line']}  {i.get('excerpt') or ''}" for i in result.items],
    )


class GraphParams(SymbolParams):
    depth: int | None = Field(default=None, description="Levels to follow, 1..6 (default 1).")
    limit_per_level: int | None = Field(default=None, description="Max new nodes per level (default 50, max 200).")


def _graph_output(direction: str, params: GraphParams, repo_path: str) -> ToolOutput:
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    row = symbols.resolve(ctx.conn, params.symbol_id, params.project)
    limits: dict[str, Any] = {}
    requested_depth = 1 if params.depth is None else params.depth
    depth = max(DEPTH[0], min(DEPTH[1], requested_depth))
    if depth != requested_depth:
        limits["max_depth"] = {"requested": requested_depth, "applied": depth}
    per_level = clamp("limit_per_level", params.limit_per_level, *PER_LEVEL, limits)
    build = graph.callers if direction == "callers" else graph.callees
    result = build(ctx.conn, row["symbol_id"], depth, per_level)
    node_key = "from" if direction == "callers" else "to"
    fan: dict[str, int] = {}
    by_node: dict[str, list[dict[str, Any]]] = {}
    for edge in result.edges:
        fan[edge[node_key]] = fan.get(edge[node_key], 0) + edge["count"]
        by_node.setdefault(edge[node_key], []).append({k: v for k, v in edge.items() if k != node_key})
    nodes = sorted(result.nodes, key=lambda n: (n["depth"], -fan.get(n.get("symbol_id") or "", 0)))
    root_id = row["symbol_id"]
    for node in nodes:
        edges = by_node.get(node.get("symbol_id") or f"?{node.get('name')}", [])[:5]
        # Said once, not per edge: the root as the other end, and the node's own file as the call site.
        node["edges"] = [{k: v for k, v in e.items() if not (k in ("to", "from") and v == root_id)
                          and not (k == "file" and v == node.get("file"))} for e in edges]
    via = sum(1 for e in result.edges if e.get("via"))
    noun = "callers" if direction == "callers" else "callees"
    answer = f"{len(nodes)} {noun} of {row['fqn']} within depth {depth}"
    answer += f" ({via} edges through interface/virtual dispatch)." if via else "."
    warnings = list(ctx.warnings)
    if result.truncated_levels:
        warnings.append(f"limit_per_level={per_level} left out nodes at levels {result.truncated_levels}; "
                        "raise limit_per_level.")
    if result.external_callees:
        warnings.append(f"{result.external_callees} callees are outside the solution (framework/packages) and "
                        "are not listed.")
    guidance = None
    if not nodes:
        guidance = Guidance("hint", f"No {noun} in the indexed solution. Entry points (controllers, "
                            "handlers, Main) have no callers; refs_find shows non-call uses.")
    return ToolOutput(
        answer=answer,
        data={"root": result.root, "depth": depth},
        ranked=RankedList("nodes", nodes, len(nodes), scope_param=None, page_param=None),
        warnings=warnings, guidance=guidance, limits_applied=limits,
        semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{'  ' * (n['depth'] - 1)}{n.get('symbol_id') or n.get('name')}" for n in nodes],
    )


@tool("graph_callers", GraphParams)
def callers_tool(params: GraphParams, repo_path: str) -> ToolOutput:
    """Use to find who calls a method, constructor or property (impact analysis), up to `depth`
    levels. Cycle-safe. Includes callers that reach it through the interface or base member it
    implements or overrides (edge `via`). Constructor calls, property accessors and extension
    calls count as calls. Callers come most-calls first; an edge omits `to` when it is the root and
    `file` when it is the caller's own file."""
    return _graph_output("callers", params, repo_path)


@tool("graph_callees", GraphParams)
def callees_tool(params: GraphParams, repo_path: str) -> ToolOutput:
    """Use to see what a method calls, up to `depth` levels: a call through an interface or virtual
    member also lists its known implementations (kind Dispatch, `via` the member). Framework callees
    are counted, not listed."""
    return _graph_output("callees", params, repo_path)


class HierarchyParams(SymbolParams):
    transitive: bool = Field(default=False, description="Follow bases up and derived types down (depth ≤ 6).")


@tool("types_hierarchy", HierarchyParams)
def hierarchy_tool(params: HierarchyParams, repo_path: str) -> ToolOutput:
    """Use to see a type's place in the hierarchy: base type (System.Object left out), implemented
    interfaces, and derived types / implementations within the solution (direct by default;
    transitive=true follows the whole chain, each entry with its depth)."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    row = symbols.resolve(ctx.conn, params.symbol_id, params.project)
    if row["kind"] not in TYPE_KINDS:
        container = row["container_id"]
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"{row['symbol_id']} is a {row['kind']}, not a type.",
                             f"Pass its type: symbol_id=\"{container}\"." if container else "Pass a type id (T:...).")
    result = types.hierarchy(ctx.conn, row["symbol_id"], params.transitive, DEPTH[1])
    descendants = [{**d, "relation": "implements"} for d in result["implementations"]] + \
                  [{**d, "relation": "derives"} for d in result["derived"]]
    descendants.sort(key=lambda d: (d["depth"], d["symbol_id"] or ""))
    base = result["bases"][0]["symbol_id"] if result["bases"] else "System.Object"
    answer = (f"{row['kind']} {row['fqn']}: base {base}, {len(result['interfaces'])} interfaces, "
              f"{len(result['implementations'])} implementations, {len(result['derived'])} derived types.")
    return ToolOutput(
        answer=answer,
        data={"symbol_id": row["symbol_id"], "kind": row["kind"], "bases": result["bases"],
              "interfaces": result["interfaces"], "transitive": params.transitive},
        ranked=RankedList("descendants", descendants, len(descendants), scope_param=None, page_param=None),
        warnings=ctx.warnings, semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{d['relation']:<10} {d['symbol_id']}" for d in descendants],
    )
