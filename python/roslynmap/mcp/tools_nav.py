"""refs_find, graph_callers, graph_callees, types_hierarchy."""

from __future__ import annotations

import sqlite3
from typing import Any, Literal

from pydantic import Field

from roslynmap.mcp.context import open_context
from roslynmap.mcp.output import Guidance, RankedList, ToolOutput, plural
from roslynmap.mcp.registry import ListParamsMixin, tool
from roslynmap.mcp.tools_symbols import SymbolParams, clamp
from roslynmap.mcp.tools_tasks import flag_broken, flag_broken_nodes
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.kinds import REFERENCE_KINDS, TYPE_KINDS
from roslynmap.model.rows import plain
from roslynmap.query import generated, graph, inactive, markup, names, refs, symbols, types, unbound, unity
from roslynmap.query.context import QueryContext
from roslynmap.query.keys import key_of
from roslynmap.query.markup import markup_components, private_owner
from roslynmap.query.markup import warning as markup_warning
from roslynmap.query.paths import repo_relative
from roslynmap.query.senders import senders_warning
from roslynmap.query.shared_ids import declarations, shared_ids

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




class NamedTargetParams(SymbolParams):
    symbol_id: str | None = None  # type: ignore[assignment]
    name: str | None = None  # a member name: only unbound calls (symbol_id falls back to them when undeclared)
    receiver_type: str | None = None  # with name: receivers of this type only


class UnboundTarget:
    """What to answer from unbound references: a member name and, optionally, a receiver type."""

    def __init__(self, member: str, receiver_type: str | None) -> None:
        self.member, self.receiver_type = member, receiver_type

    def label(self) -> str:
        return f"{self.receiver_type}.{self.member}" if self.receiver_type else self.member


def resolve_target(ctx: QueryContext, params: NamedTargetParams) -> Any:
    """A declared symbol's row, or an UnboundTarget when the name asked for is no declared symbol."""
    if params.symbol_id and params.name:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, "Pass symbol_id or name, not both.",
                             "symbol_id for a symbol of the solution; name (+ receiver_type) for unbound calls.")
    if params.name:
        member, qualifier = unbound.split_member(params.name)
        return UnboundTarget(member, params.receiver_type or qualifier)
    if not params.symbol_id:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, "Pass symbol_id (an id or a plain name) or name.",
                             "Find ids with symbols_search; name=\"GetByIdAsync\" lists unbound calls by name.")
    row = names.resolve(ctx.conn, params.symbol_id, params.project)
    if row is not None:
        return row
    member, qualifier = unbound.split_member(params.symbol_id)
    return UnboundTarget(member, params.receiver_type or qualifier)


def not_found_anywhere(ctx: QueryContext, target: UnboundTarget, same_name: int) -> RoslynMapError:
    hint = (f"{same_name} unbound references are named '{target.member}' but none has a receiver like "
            f"{target.receiver_type}: drop receiver_type to list them." if same_name else
            f"Search with symbols_search(query=\"{target.member}\").")
    candidates = symbols.suggest(ctx.conn, target.label())
    if not same_name and (sources := markup.generating(ctx.conn, target.member)):
        # `LoadRankingsCommand`, only XAML binds it: the method it is generated from is what to ask about.
        return RoslynMapError(ErrorCode.NOT_FOUND, f"No declared symbol '{target.member}': "
                              f"{_generated_from(ctx, sources)}",
                              "Pass it as symbol_id: its references and where markup names the generated member.",
                              candidates=[{"symbol_id": sid} for sid, _, _ in sources[:5]])
    declared = [str(r[0]) for r in ctx.conn.execute("SELECT DISTINCT symbol_id FROM symbols WHERE name = ?"
                                                    " ORDER BY symbol_id", (target.member,))]
    if target.receiver_type and (row := _declared(ctx, target.label())) is not None:
        # `name="DeleteProductCommandHandler.HandleAsync"`: no unbound call, but a declared member (Practical.Clean
        # Architecture's: the answer said "no declared symbol" and then listed it first).
        return RoslynMapError(ErrorCode.NOT_FOUND, f"No unbound reference matches '{target.label()}', but it is a "
                              "declared symbol.", "Pass it as symbol_id (name= lists only calls the compiler could not "
                              "bind).", candidates=[{"symbol_id": row["symbol_id"]}])
    if declared and not same_name:  # `name=` asks for unbound calls; the member is declared (Kavita's 9 overloads)
        return RoslynMapError(ErrorCode.NOT_FOUND, f"No unbound reference is named '{target.member}', but "
                              f"{len(declared)} declared symbol{'s are' if len(declared) > 1 else ' is'}.",
                              "Pass one of them as symbol_id (name= lists only calls the compiler could not bind).",
                              candidates=[{"symbol_id": d} for d in declared[:5]])
    return RoslynMapError(ErrorCode.NOT_FOUND, f"No declared symbol and no unbound reference matches "
                          f"'{target.label()}'.", hint, candidates=candidates or None)


def _generated_from(ctx: QueryContext, sources: list[tuple[str, str, str]]) -> str:
    """`it is what CommunityToolkit.Mvvm generates from F:...isBusy ([ObservableProperty]), ...`, with where markup
    names it."""
    said = ", ".join(f"{sid} ([{'RelayCommand' if kind == 'Method' else 'ObservableProperty'}])"
                     for sid, _, kind in sources[:3])
    text = (f"it is what CommunityToolkit.Mvvm generates from {said}; the generator's output is not indexed (nor "
            "generated at all when the package did not restore): refs_find with "
            f"{'that symbol_id' if len(sources) == 1 else 'one of those symbol_ids'} also says where markup names it.")
    sid, name, kind = sources[0]
    named = markup.warning(ctx.conn, ctx.root, name, kind, sid)
    return text + (f" {named}" if named else "")


def _declared(ctx: QueryContext, name: str) -> Any:
    """The declared symbol a qualified name resolves to, or None (none, or several)."""
    try:
        return names.resolve(ctx.conn, name, None)
    except RoslynMapError:  # ambiguous: the general answer lists candidates
        return None


UNBOUND_NOTE = ("Calls the compiler could not bind (a missing package or reference, an unknown receiver type); "
                "matched by name, so each could be a call to this member or to another of the same name. "
                "`candidate` marks a call whose compiler candidates include the member (`only`: the one it "
                "could be); a call whose candidates are all other members is left out.")


class RefsParams(NamedTargetParams, ListParamsMixin):
    kind: list[str] | None = Field(default=None, description="Call, Read, Write, Instantiate, Override, "
                                   "Implementation, TypeRef, ImplicitCall, MockSetup (a mock's Setup/Verify "
                                   "lambda), AttributeArgument (`[Retry(Attempts = 0)]` sets Attempts).")
    resolution_state: Literal["resolved", "unresolved"] | None = Field(
        default=None, description="unresolved: references the compiler could not bind.")
    file_path: str | None = Field(default=None, description="Path prefix.")
    limit: int | None = None
    offset: int = Field(default=0, ge=0)


def _seeing_declaration(ctx: QueryContext, row: sqlite3.Row, project: str | None) -> list[int] | None:
    """With `project`, for an id several projects declare (a linked source file, every `Program.<Main>$`): the
    projects whose references name that project's declaration. None otherwise (every reference)."""
    key = key_of(ctx.conn, row["symbol_id"])
    if not project or row["project_id"] is None or key is None:
        return None
    shared = shared_ids(ctx.conn)
    if not shared.declared_in([key]):
        return None
    return sorted(shared.seeing(key, [int(row["project_id"])]))


@tool("refs_find", RefsParams)
def refs_tool(params: RefsParams, repo_path: str) -> ToolOutput:
    """Use before changing, renaming or deleting a symbol: every reference, classified by kind, with file:line
    and the referencing symbol."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    target = resolve_target(ctx, params)
    limits: dict[str, Any] = {}
    limit = clamp("max_references", params.limit, *REFS_LIMIT, limits)
    kinds = validate_ref_kinds(params.kind)
    prefix = repo_relative(ctx.root, params.file_path) if params.file_path else None
    if isinstance(target, UnboundTarget):
        return _unbound_refs(ctx, target, kinds, prefix, limit, params.offset, limits)
    row = target
    markup = refs.markup_refs(ctx.conn, ctx.root, dict(row), kinds, prefix) \
        if params.resolution_state != "unresolved" else []
    result = refs.find(ctx.conn, ctx.root, row["symbol_id"], row["name"], kinds, params.resolution_state,
                       prefix, limit, params.offset, markup, _seeing_declaration(ctx, row, params.project))
    narrow = [f"kind=\"{k['kind']}\" ({k['count']} of them)" for k in result.by_kind[:2]] if not kinds and \
        len(result.by_kind) > 1 else []
    counts = ", ".join(f"{k['count']} {k['kind']}" for k in result.by_kind)
    state = "unresolved references named" if params.resolution_state == "unresolved" else "references to"
    answer = f"{result.total} {state} {row['fqn']}" + (f" ({counts})" if counts else "")
    if result.unresolved_same_name and params.resolution_state != "unresolved":
        answer += f", + {result.unresolved_same_name} unbound references named {row['name']} that could be it"
    answer += "."
    guidance = None
    warnings = list(ctx.warnings)
    if broken := flag_broken(ctx, [(i, i.get("file"), i.get("line"), i.get("from_symbol_id"))
                                    for i in plain(result.items)]):
        warnings.append(broken)
    dispatched = refs.dispatch_targets(ctx.conn, row["symbol_id"])
    members = [t for t, _ in dispatched if not t.startswith("T:")]
    if members and params.resolution_state != "unresolved":
        guidance = Guidance("must_follow", f"{row['name']} implements/overrides {', '.join(members[:3])}: calls made "
                            f"through {'them' if len(members) > 1 else 'it'} are not listed here. Run refs_find("
                            f"symbol_id=\"{members[0]}\") too, or graph_callers which follows dispatch.")
    uses = generated.uses(ctx.conn, row["symbol_id"]) if params.resolution_state != "unresolved" else []
    named = markup_warning(ctx.conn, ctx.root, row["name"], row["kind"], row["symbol_id"], _private_to(row),
                           generated.from_razor(uses)) if params.resolution_state != "unresolved" else None
    if row["external"] and row["assembly"] == symbols.UNDECLARED:
        warnings.append(f"{row['fqn']} is declared in no indexed file: a Blazor component only its .razor file "
                        "declares (or a member of its `@code`), another source generator's output, or an implicit "
                        "constructor. Its references are listed; it has no declaration to show.")
    if named:
        warnings.append(named)
    if result.unresolved_same_name and params.resolution_state != "unresolved":
        warnings.append(f"{result.unresolved_same_name} unresolved references are named '{row['name']}' and may "
                        "point here: resolution_state=\"unresolved\" lists them.")
    if dormant := inactive.naming(ctx.conn, row["name"]):
        warnings.append(_inactive_note(row["name"], dormant))
    # Markup's `@inject` lines are listed already: the Razor generator's uses there are not said twice.
    listed = {(m["file"] or "", m["line"]) for m in markup}
    made = generated.unlisted(uses, listed)
    if made:
        answer = answer.removesuffix(".") + f", + {generated.headline(made)}."
        warnings.append(generated.note(row["name"], made))
    # A Unity component is used mostly where scenes and prefabs attach it, which no C# reference shows.
    in_assets = unity.asset_uses(ctx.conn, row["symbol_id"], row["kind"], row["name"]) \
        if params.resolution_state != "unresolved" and not kinds and prefix is None else None
    if in_assets is not None and in_assets.assets:
        answer = answer.removesuffix(".") + f"; {in_assets.headline()}."
    if in_assets is not None and (said := in_assets.note()):
        warnings.append(said)
    if result.total == 0 and guidance is None and not result.unresolved_same_name and not made \
            and not (in_assets and in_assets.assets):
        guidance = Guidance("hint", "No references in the indexed solution" + (" with these filters" if kinds or
                            prefix else "") + ". It may be used by reflection, DI or outside the solution; "
                            "check surfaces or search its name with symbols_search.")
    return ToolOutput(
        answer=answer,
        data={"symbol": {"symbol_id": row["symbol_id"], "kind": row["kind"], "file": row["file"],
                         "line": row["line"]}, "by_kind": result.by_kind,
              **(generated.listed(made) if made else {}),
              **(in_assets.as_data() if in_assets is not None and in_assets.assets else {})},
        ranked=RankedList("references", plain(result.items), result.total, params.offset, result.by_file, narrow),
        guidance=guidance, warnings=warnings, limits_applied=limits,
        semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{i['kind']:<12} {i['file']}:{i['line']}  {i.get('excerpt') or ''}" for i in result.items],
    )


def _private_to(row: Any) -> str | None:
    """The type whose own markup alone can name this private member (markup.private_owner)."""
    return private_owner(row["visibility"], row["container_id"])


def _undeclared_hierarchy(ctx: QueryContext, row: Any) -> ToolOutput:
    """A type no indexed file declares (MudBlazor's MudTabPanel, said `base Object`): its base as its `.razor`
    file's `@inherits` writes it, if it has one; nothing else is known."""
    own = markup_components(ctx.conn, ctx.root, named=str(row["name"]))
    own = own if len(own) == 1 else []  # several `.razor` files of that name: which one is not known
    derived = markup_components(ctx.conn, ctx.root, {str(row["name"])})
    said = [f"`@inherits {own[0].inherits}` ({own[0].file}:{own[0].line})"] if own else []
    said += [plural(len(derived), "component") + " declared only in .razor markup `@inherits` it"] if derived else []
    return ToolOutput(
        answer=f"{row['kind']} {row['fqn']} is declared in no indexed file, so its bases, interfaces and derived types "
               f"are not known" + (": " + ", ".join(said) if said else "") + ".",
        data={"symbol_id": row["symbol_id"], "bases": [], "interfaces": [],
              **({"markup_base": own[0].as_dict()} if own else {}),
              **({"markup_components": [c.as_dict() for c in derived]} if derived else {})},
        warnings=ctx.warnings, semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"inherits {own[0].inherits}"] if own else [],
    )


def _inactive_note(name: str, regions: list[inactive.InactiveRegion]) -> str:
    """Where `#if` branches not compiled for the indexed target name it: uses no reference records."""
    places = ", ".join(f"{r.file}:{r.line}-{r.end_line} ({r.condition})" for r in regions[:3])
    more = f" and {len(regions) - 3} more" if len(regions) > 3 else ""
    return (f"'{name}' is also named in {plural(len(regions), '#if branch')} not compiled for "
            f"the indexed target ({places}{more}): uses there are not listed as references.")


def _unbound_refs(ctx: QueryContext, target: UnboundTarget, kinds: list[str], prefix: str | None, limit: int,
                  offset: int, limits: dict[str, Any]) -> ToolOutput:
    """refs_find for a name no declared symbol has: the unbound references that could be it."""
    found = unbound.find(ctx.conn, [target.member], target.receiver_type, kinds or unbound.ALL_KINDS, prefix,
                         limit, offset)
    if not found.total:
        raise not_found_anywhere(ctx, target, found.same_name)
    for item in found.items:
        item["unresolved"] = True
    warnings = list(ctx.warnings)
    if broken := flag_broken(ctx, [(i, i.get("file"), i.get("line"), i.get("from_symbol_id")) for i in found.items]):
        warnings.append(broken)
    if target.receiver_type is None and (sources := markup.generating(ctx.conn, target.member)):
        warnings.append(f"No declared symbol '{target.member}': {_generated_from(ctx, sources)}")
    others = found.same_name - found.total
    if others:
        warnings.append(f"{others} more unbound references are named '{target.member}' with a receiver not "
                        f"known to be a {target.receiver_type} (a local, or an unknown type): drop receiver_type "
                        "to list them.")
    return ToolOutput(
        answer=f"No declared symbol '{target.label()}': {unbound.describe(found, target.member, target.receiver_type)}"
               f" (unbound matches, not bound references) in {found.callers} "
               f"member{'s' if found.callers != 1 else ''}.",
        data={"unbound_match": {"name": target.member, "receiver_type": target.receiver_type,
                                "same_name": found.same_name, "note": UNBOUND_NOTE},
              "by_kind": found.counts.by_kind},
        ranked=RankedList("references", found.items, found.total, offset, found.counts.by_file),
        warnings=warnings, limits_applied=limits, semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"unbound {i['kind']:<8} {i['file']}:{i['line']}  {i.get('receiver') or ''}.{i['name']}"
                 for i in found.items],
    )


class GraphParams(NamedTargetParams):
    depth: int | None = None
    limit_per_level: int | None = None


def _unbound_section(result: graph.Graph) -> tuple[dict[str, Any] | None, str]:
    """data.unbound_calls and the headline's second half for callers: `, + 2 unbound calls named X that could be it`."""
    if not result.unbound:
        return None, ""
    items = [{**i, "depth": level} for level, found in sorted(result.unbound.items()) for i in found.items]
    total = sum(f.total for f in result.unbound.values())
    first = result.unbound.get(1)
    parts = []
    if first:
        parts.append(f"{unbound.describe(first, '', None)} that could be it (in {first.callers} more "
                     f"member{'s' if first.callers != 1 else ''})")
    deeper = {lvl: f for lvl, f in result.unbound.items() if lvl > 1}
    if deeper:
        deep_total = sum(f.total for f in deeper.values())
        deep_names = sorted({n for f in deeper.values() for n in f.by_name})
        parts.append(f"{deep_total} more at depth {'-'.join(map(str, sorted({min(deeper), max(deeper)})))} named "
                     f"{', '.join(deep_names[:5])}{'…' if len(deep_names) > 5 else ''}")
    section = {"total": total, "by_depth": {str(lvl): f.total for lvl, f in sorted(result.unbound.items())},
               "by_name": {n: sum(f.by_name.get(n, 0) for f in result.unbound.values())
                           for n in sorted({n for f in result.unbound.values() for n in f.by_name})},
               "callers": len({k for f in result.unbound.values() for k in f.from_keys}),
               "items": items, "note": UNBOUND_NOTE}
    return section, " + " + " and ".join(parts)


def _unbound_callers(ctx: QueryContext, target: UnboundTarget, params: GraphParams,
                     limits: dict[str, Any]) -> ToolOutput:
    """graph_callers for a name no declared symbol has: the members making unbound calls that could be it."""
    per_level = clamp("limit_per_level", params.limit_per_level, *PER_LEVEL, limits)
    found = unbound.find(ctx.conn, [target.member], target.receiver_type, ("Call",), limit=PER_LEVEL[1])
    if not found.total:
        raise not_found_anywhere(ctx, target, found.same_name)
    if (params.depth or 1) != 1:
        limits["max_depth"] = {"requested": params.depth, "applied": 1}
    calls: dict[str, list[dict[str, Any]]] = {}
    for item in found.items:
        calls.setdefault(item["from_symbol_id"] or "", []).append(
            {k: item[k] for k in ("receiver", "file", "line", "kind") if item.get(k)})
    info = graph.nodes_info(ctx.conn, [c for c in calls if c])
    nodes = [{**info.get(c, {"symbol_id": c or None}), "depth": 1, "unbound": True, "edges": edges[:5]}
             for c, edges in sorted(calls.items(), key=lambda ce: (-len(ce[1]), ce[0]))][:per_level]
    warnings = list(ctx.warnings)
    if found.same_name > found.total:
        warnings.append(f"{found.same_name - found.total} more unbound calls are named '{target.member}' with a "
                        f"receiver not known to be a {target.receiver_type}: drop receiver_type to see them.")
    return ToolOutput(
        answer=f"No declared symbol '{target.label()}': {found.callers} "
               f"member{'s make' if found.callers != 1 else ' makes'} "
               f"{unbound.describe(found, target.member, target.receiver_type)} (unbound matches, depth 1).",
        data={"root": {"name": target.member, "receiver_type": target.receiver_type, "unbound": True}, "depth": 1,
              "unbound_calls": {"total": found.total, "same_name": found.same_name, "items": found.items,
                                "note": UNBOUND_NOTE}},
        ranked=RankedList("nodes", nodes, len(nodes), scope_param=None, page_param=None),
        warnings=warnings, limits_applied=limits, semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"unbound {n.get('symbol_id')}  {len(n['edges'])} calls" for n in nodes],
    )


def _split_shared_callers(ctx: QueryContext, nodes: list[dict[str, Any]], by_node: dict[str, list[dict[str, Any]]]
                          ) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """A caller whose id several projects declare is one caller per declaring file its calls come from: TodoApi's
    `MapDefaultEndpoints` had "1 caller at Todo.Api/Program.cs:5" for two Programs calling it. Calls from one file
    name that declaration too (its project, file and line), not whichever project declares the id first."""
    out: list[dict[str, Any]] = []
    shared = shared_ids(ctx.conn).shared(str(n["symbol_id"]) for n in nodes if n.get("symbol_id"))
    for node in nodes:
        sid = node.get("symbol_id")
        edges = by_node.get(sid or "", [])
        files = sorted({str(e["file"]) for e in edges if e.get("file")})
        places = declarations(ctx.conn, sid) if sid in shared and files else {}
        if len(places) < 2:
            out.append(node)
            continue
        for file in files:
            project, line = places.get(file, (node.get("project"), node.get("line")))
            out.append({**node, "file": file, "line": line, "project": project,
                        "edges": [e for e in edges if e.get("file") == file]})
        by_node.pop(sid or "", None)
    return out, by_node


def _graph_output(direction: str, params: GraphParams, repo_path: str) -> ToolOutput:
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    target = resolve_target(ctx, params)
    limits: dict[str, Any] = {}
    if isinstance(target, UnboundTarget):
        if direction == "callers":
            return _unbound_callers(ctx, target, params, limits)
        raise RoslynMapError(ErrorCode.NOT_FOUND, f"No declared symbol '{target.label()}': its callees are unknown.",
                             f"Search with symbols_search(query=\"{target.member}\").",
                             candidates=symbols.suggest(ctx.conn, target.label()) or None)
    row = target
    requested_depth = 1 if params.depth is None else params.depth
    depth = max(DEPTH[0], min(DEPTH[1], requested_depth))
    if depth != requested_depth:
        limits["max_depth"] = {"requested": requested_depth, "applied": depth}
    per_level = clamp("limit_per_level", params.limit_per_level, *PER_LEVEL, limits)
    if direction == "callers":
        # An id several projects declare, asked for in one project: the callers of that declaration only.
        asked = [row["project_id"]] if params.project and row["project_id"] is not None else None
        result = graph.callers(ctx.conn, row["symbol_id"], depth, per_level, root_projects=asked)
    else:
        places = declarations(ctx.conn, row["symbol_id"])
        # An id several projects declare (each top-level Program's `<Main>$`) shares one key: the calls of the
        # declaration asked for (its project) only.
        own = (row["file"], row["line"], row["end_line"]) if len(places) > 1 and row["file"] else None
        result = graph.callees(ctx.conn, row["symbol_id"], depth, per_level,
                               calls_only=not getattr(params, "all_edges", False), root_place=own)
        if own:
            result.root.update(file=row["file"], line=row["line"], project=row["project"])
    node_key = "from" if direction == "callers" else "to"
    fan: dict[str, int] = {}
    by_node: dict[str, list[dict[str, Any]]] = {}
    for edge in result.edges:
        fan[edge[node_key]] = fan.get(edge[node_key], 0) + edge["count"]
        by_node.setdefault(edge[node_key], []).append({k: v for k, v in edge.items() if k != node_key})
    nodes = sorted(result.nodes, key=lambda n: (n["depth"], -fan.get(n.get("symbol_id") or "", 0)))
    if direction == "callers":
        nodes, by_node = _split_shared_callers(ctx, nodes, by_node)
    root_id = row["symbol_id"]
    # A call site is in the file of the member making the call (`from`): said once, by that member's node.
    file_of = {n.get("symbol_id"): n.get("file") for n in nodes} | {root_id: result.root.get("file")}
    for node in nodes:
        edges = (node.pop("edges", None) or by_node.get(node.get("symbol_id") or f"?{node.get('name')}", []))[:5]
        caller_file = node.get("file") if direction == "callers" else None
        # Said once, not per edge: the root as the other end, and the calling member's file as the call site.
        node["edges"] = [{k: v for k, v in e.items() if not (k in ("to", "from") and v == root_id)
                          and not (k == "file" and v == (caller_file or file_of.get(e.get("from", root_id))))}
                         for e in edges]
    via = sum(1 for e in result.edges if e.get("via"))
    noun = "callers" if direction == "callers" else "callees"
    unbound_data, unbound_text = _unbound_section(result) if direction == "callers" else (None, "")
    bound = [n for n in nodes if not n.get("unresolved")]
    # The headline is the true total, not the page: nodes limit_per_level left out count too. Past a
    # truncated level the deeper levels were walked from the shown nodes only: "at least".
    left_out = sum(result.truncated_levels.values())
    partial_walk = bool(result.truncated_levels) and min(result.truncated_levels) < depth
    total = f"{'at least ' if partial_walk else ''}{len(bound) + left_out}"
    one = not partial_walk and len(bound) + left_out == 1
    answer = (f"{total} {'bound ' if direction == 'callers' else ''}{noun.removesuffix('s') if one else noun} of "
              f"{row['fqn']} within depth {depth}")
    if left_out:
        answer += f" ({len(bound)} shown: limit_per_level={per_level})"
    if direction == "callers":
        answer += (f" ({plural(via, 'edge')} through interface/virtual dispatch)" if via else "") + unbound_text + "."
    else:
        blind = sorted({n["name"] for n in nodes if n.get("unresolved")} | set(result.unbound_skipped))
        answer += f" ({plural(via, 'edge')} through interface/virtual dispatch)" if via else ""
        answer += (f", + {plural(len(blind), 'unbound call')} ({', '.join(blind[:5])}{'…' if len(blind) > 5 else ''})"
                   if blind else "") + "."
    warnings = list(ctx.warnings)
    if direction == "callers" and (broken := flag_broken_nodes(ctx, nodes)):
        warnings.append(broken)
    # A [RelayCommand] method's caller is the generated command: said, not a bare 0 (Avalonia.Samples).
    made = generated.uses(ctx.conn, root_id) if direction == "callers" else []
    if direction == "callers" and (named := markup_warning(ctx.conn, ctx.root, row["name"], row["kind"],
                                                           row["symbol_id"], _private_to(row),
                                                           generated.from_razor(made))):
        warnings.append(named)
    if made:
        answer = answer.removesuffix(".") + f" + {generated.headline(made)}."
        warnings.append(generated.note(row["name"], made))
    sent = senders_warning(ctx.conn, root_id) if direction == "callers" else None
    if sent:
        warnings.append(sent)
    if unbound_data:
        warnings.append(f"{unbound_data['total']} calls the compiler could not bind have the name of a member in this "
                        "graph; they are counted and listed under unbound_calls, not walked.")
    if result.truncated_levels:
        warnings.append(f"limit_per_level={per_level} left out nodes at levels {result.truncated_levels}; "
                        "raise limit_per_level.")
    if result.external_callees:
        warnings.append(f"{result.external_callees} callees are outside the solution (framework/packages) and "
                        "are not listed.")
    if result.unbound_skipped:
        skipped = sum(result.unbound_skipped.values())
        warnings.append(f"{plural(skipped, 'unbound call')} {'is' if skipped == 1 else 'are'} counted, not listed: "
                        "all_edges=true lists them (and property reads).")
    # A method group handed to a call that did not bind (Exceptionless's `messageBus.SubscribeAsync<PlanChanged>(
    # OnPlanChangedAsync)`, Foundatio not restored) is an unbound read of the name, not a call: said, with where.
    handed = unbound.find(ctx.conn, [row["name"]], kinds=("Read",), limit=3, symbol_ids={root_id}) \
        if direction == "callers" and row["kind"] == "Method" else None
    if handed and handed.total:
        where = ", ".join(f"{i['file']}:{i['line']}" for i in handed.items)
        answer = answer.removesuffix(".") + (f" + {plural(handed.total, 'unbound reference')} to its name, not a"
                                             f" call ({where}).")
        verb = "names" if handed.total == 1 else "name"
        warnings.append(f"{plural(handed.total, 'reference')} the compiler could not bind {verb}"
                        f" {row['name']} without calling it ({where}): a method group handed to an unbound call (an"
                        " event bus's Subscribe) may be how it runs; refs_find lists them.")
    guidance = None
    # a handler a mediator, queue or bus runs is no entry point, nor a method group handed to an unbound call
    if not nodes and not unbound_data and not sent and not (handed and handed.total) and not made:
        guidance = Guidance("hint", f"No {noun} in the indexed solution. Entry points (controllers, "
                            "handlers, Main) have no callers; refs_find shows non-call uses.")
    # The root's name is in its symbol_id.
    data: dict[str, Any] = {"root": {k: v for k, v in result.root.items() if k != "name"}, "depth": depth}
    if unbound_data:
        data["unbound_calls"] = unbound_data
    if made:
        data.update(generated.listed(made))
    return ToolOutput(
        answer=answer,
        data=data,
        ranked=RankedList("nodes", nodes, len(nodes), scope_param=None, page_param=None),
        warnings=warnings, guidance=guidance, limits_applied=limits,
        semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{'  ' * (n['depth'] - 1)}{n.get('symbol_id') or n.get('name')}" for n in nodes],
    )


@tool("graph_callers", GraphParams)
def callers_tool(params: GraphParams, repo_path: str) -> ToolOutput:
    """Use for impact analysis: who calls a member, up to `depth` levels, through the interfaces and bases it
    implements too."""
    return _graph_output("callers", params, repo_path)


class CalleesParams(GraphParams):
    all_edges: bool = Field(default=False, description="Also property reads and unbound calls.")


@tool("graph_callees", CalleesParams)
def callees_tool(params: CalleesParams, repo_path: str) -> ToolOutput:
    """Use to see what a method calls, up to `depth` levels; interface calls list their implementations."""
    return _graph_output("callees", params, repo_path)


class HierarchyParams(SymbolParams):
    transitive: bool = False  # the whole chain up and down


@tool("types_hierarchy", HierarchyParams)
def hierarchy_tool(params: HierarchyParams, repo_path: str) -> ToolOutput:
    """Use to see a type's base type, interfaces, derived types and implementations."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    row = names.require(ctx.conn, params.symbol_id, params.project)
    if row["kind"] not in TYPE_KINDS:
        container = row["container_id"]
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"{row['symbol_id']} is a {row['kind']}, not a type.",
                             f"Pass its type: symbol_id=\"{container}\"." if container else "Pass a type id (T:...).")
    if row["external"] and row["assembly"] == symbols.UNDECLARED:
        return _undeclared_hierarchy(ctx, row)
    result = types.hierarchy(ctx.conn, row["symbol_id"], params.transitive, DEPTH[1])
    descendants = [{**d, "relation": "implements"} for d in result["implementations"]] + \
                  [{**d, "relation": "derives"} for d in result["derived"]]
    descendants.sort(key=lambda d: (d["depth"], d["symbol_id"] or ""))
    first = result["bases"][0] if result["bases"] else None
    # A base the compiler could not bind (its package did not restore) has a name and no id: said by its name.
    base = "System.Object" if first is None else first.get("symbol_id") or f"{first.get('name')} (unresolved)"
    # What there is, said once: an interface has no base class, and a count of zero is left out.
    said = [] if row["kind"] == "Interface" else [f"base {base}"]
    said += [f"{len(result[key])} {label}" for key, label in
             (("interfaces", "interfaces"), ("implementations", "implementations"), ("derived", "derived types"))
             if result[key]]
    # Blazor components only a `.razor` file declares derive from it in generated code alone (MudBlazor's MudTabPanel).
    derived = {str(d["name"]) for d in result["derived"] if d.get("name")} if params.transitive else set()
    bases = {str(row["name"])} | derived
    in_markup = markup_components(ctx.conn, ctx.root, bases) if row["kind"] == "Class" else []
    if in_markup:
        said.append(plural(len(in_markup), "component") + " declared only in .razor markup")
    answer = f"{row['kind']} {row['fqn']}: " + (", ".join(said) if said else
                                                "no base interfaces, implementations or derived types") + "."
    warnings = list(ctx.warnings)
    if in_markup:
        places = ", ".join(f"{c.name} ({c.file}:{c.line})" for c in in_markup[:3])
        warnings.append(f"{plural(len(in_markup), 'component')} declared only in .razor files `@inherits` "
                        f"{'it or a type derived from it' if params.transitive else 'it'} ({places}"
                        f"{', ...' if len(in_markup) > 3 else ''}): the Razor generator's classes are not indexed, so "
                        "they are not among the derived types and their `@code` members are no symbols; read those "
                        "files.")
    return ToolOutput(
        answer=answer,
        data={"symbol_id": row["symbol_id"], "bases": result["bases"], "interfaces": result["interfaces"],
              **({"markup_components": [c.as_dict() for c in in_markup]} if in_markup else {})},
        ranked=RankedList("descendants", descendants, len(descendants), scope_param=None, page_param=None),
        warnings=warnings, semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{d['relation']:<10} {d['symbol_id']}" for d in descendants],
    )
