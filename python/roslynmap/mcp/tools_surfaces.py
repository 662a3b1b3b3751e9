"""surfaces_list_endpoints, surfaces_list_config_keys, surfaces_list_db_tables, graph_trace_feature and
surfaces_list (DI registrations, middleware, log templates, exceptions by `kind`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field

from roslynmap.mcp.context import open_context
from roslynmap.mcp.output import Guidance, RankedList, ToolOutput, plural
from roslynmap.mcp.registry import WorkspaceParams, tool
from roslynmap.mcp.tools_symbols import clamp
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.ids import is_doc_id, is_stable_id
from roslynmap.query import graph, markup, names, review, surfaces, trace
from roslynmap.query.context import QueryContext

LIST_LIMIT = (50, 500)
TRACE_DEPTH = (3, 6)


class ListParams(WorkspaceParams):
    limit: int | None = None
    offset: int = Field(default=0, ge=0)


def _page(listing: surfaces.Listing, params: ListParams, limits: dict[str, Any]) -> list[dict[str, Any]]:
    limit = clamp("max_results", params.limit, *LIST_LIMIT, limits)
    return listing.items[params.offset:params.offset + limit]


def _no_facts_hint(ctx: QueryContext, what: str) -> Guidance:
    level = ctx.semantic_level
    return Guidance("hint", f"No {what} found in the index (semantic level {level}). roslynmap finds "
                    "framework patterns by binding and, when packages are missing, by syntax; check "
                    "symbols_search for the handler or key by name.")


def _empty_hint(ctx: QueryContext, what: str, in_index: int, unmatched: str, call: str,
                filters: list[str]) -> Guidance:
    """The hint of an empty list: an index holding none of `what` says so (_no_facts_hint); filters matching none of
    the `in_index` it holds say that instead (never claim an empty index when only a filter matched nothing)."""
    if not in_index or not filters:
        return _no_facts_hint(ctx, what)
    return Guidance("hint", f"{unmatched} ({in_index} {what} in the index). Call {call} without "
                    f"{' and '.join(filters)} to see them.")


def _quoted(value: str | None) -> str:
    return f"'{value.strip()}'" if value is not None else ""


class EndpointParams(ListParams):
    path_filter: str | None = None
    http_method: str | None = None


@tool("surfaces_list_endpoints", EndpointParams)
def endpoints_tool(params: EndpointParams, repo_path: str) -> ToolOutput:
    """Use to see a service's HTTP surface: every endpoint with method, route, handler and file:line."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    limits: dict[str, Any] = {}
    listing = surfaces.endpoints(ctx.conn, params.path_filter, params.http_method)
    items = _page(listing, params, limits)
    by_method = ", ".join(f"{c['count']} {c['method']}" for c in listing.counts)
    answer = plural(listing.total, "endpoint") + (f" ({by_method})" if by_method else "") + (
        f" match '{params.path_filter}'" if params.path_filter else "") + "."
    narrow = [f"http_method=\"{c['method']}\" ({c['count']} of them)" for c in listing.counts[:2]] \
        if not params.http_method and len(listing.counts) > 1 else []
    warnings = list(ctx.warnings)
    unprefixed = sum(1 for r in listing.items if r.get("group_prefix") == "unknown")
    if unprefixed:
        warnings.append(f"{unprefixed} of these routes are mapped on a route group their method is handed, and no "
                        "call in the solution hands it one (a registration by reflection?): they are shown without "
                        "the group's prefix (group_prefix: unknown).")
    # A route no action is known to handle (a conventional pattern none fits) has nothing to trace.
    traceable = [r for r in items if not r.get("no_action")]
    actions = [{"tool": "graph_trace_feature", "why": "follow the first endpoint through the code",
                "args": {"entry_point": f"{traceable[0]['method']} {traceable[0]['route']}"}}] if traceable else []
    return ToolOutput(
        answer=answer, data={"by_method": listing.counts},
        ranked=RankedList("endpoints", items, listing.total, params.offset, listing.by_file, narrow,
                          scope_param=None),
        guidance=None if listing.total else _endpoints_hint(ctx, params), next_actions=actions,
        limits_applied=limits, warnings=warnings, semantic_level=ctx.semantic_level,
        baseline_commit=ctx.commit,
        preview=[f"{i['method']:<6} {i['route']}  -> {i['handler'] or '(no action fits)'}" for i in items])


def _endpoints_hint(ctx: QueryContext, params: EndpointParams) -> Guidance:
    in_index = surfaces.endpoints(ctx.conn, None, None).total
    verb = f"{params.http_method.strip().upper()} " if params.http_method else ""
    route = f" whose route contains {_quoted(params.path_filter)}" if params.path_filter else ""
    return _empty_hint(ctx, "endpoints", in_index, f"No {verb}endpoint{route}", "surfaces_list_endpoints",
                       [f for f, v in (("path_filter", params.path_filter), ("http_method", params.http_method)) if v])


class ConfigParams(ListParams):
    key_filter: str | None = None
    project: str | None = None
    status: Literal["used", "defined_but_unused", "used_but_undefined", "bound_unset", "dynamic",
                    "read_by_framework", "read_dynamically"] | None = None


PLACES_SHOWN = 5


def _first_places(key: dict[str, Any]) -> dict[str, Any]:
    """A key of a list with at most PLACES_SHOWN usages and definitions (bitwarden/server binds GlobalSettings
    in 29 places), and how many there are."""
    out = dict(key)
    for field in ("usages", "defined_in"):
        places = key.get(field) or []
        if len(places) > PLACES_SHOWN:
            out[field] = places[:PLACES_SHOWN]
            out[f"{field}_total"] = len(places)
    return out


@tool("surfaces_list_config_keys", ConfigParams)
def config_tool(params: ConfigParams, repo_path: str) -> ToolOutput:
    """Use to see which configuration keys the code reads and appsettings*.json define, each with a status."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    limits: dict[str, Any] = {}
    reads = markup.config_reads(ctx.conn, ctx.root)
    listing = surfaces.config_keys(ctx.conn, params.key_filter, params.project, params.status, reads)
    items = _page(listing, params, limits)
    # The count per status is data (by_status): the answer does not say it again.
    verb = "is" if listing.total == 1 else "are"
    of_all = f" {verb} {params.status}, of {sum(c['count'] for c in listing.counts)}" if params.status else ""
    answer = f"{plural(listing.total, 'configuration key')}{of_all}."
    warnings = list(ctx.warnings)
    if len(items) > 1:  # a list: each key's first places (one key asked for by key_filter: all of them)
        items = [_first_places(i) for i in items]
        crowded = [i["key"] for i in items if "usages_total" in i or "defined_in_total" in i]
        if crowded:
            some = f"{len(crowded)} keys are" if len(crowded) != 1 else "1 key is"
            warnings.append(f"{some} read or defined in more than {PLACES_SHOWN} places: each shows "
                            f"its first {PLACES_SHOWN} (usages_total, defined_in_total); key_filter=\"{crowded[0]}\" "
                            "lists all of one.")
    lacking = {host for i in items if i.get("status") in ("used_but_undefined", "bound_unset")
               for host in i.get("undefined_in") or []}
    if lacking and (sources := surfaces.config_sources(ctx.conn, lacking)):
        places: dict[str, list[str]] = {}  # the calls of one place said once with it (a chained builder)
        for source in sources[:3]:
            places.setdefault(f"{source['file']}:{source['line']}", []).append(
                f"{source['key']}({source.get('path') or ''})")
        shown = "; ".join(f"{', '.join(calls)} at {place}" for place, calls in places.items())
        more = f" and {len(sources) - 3} more" if len(sources) > 3 else ""
        warnings.append(f"Configuration also comes from sources the index does not read (an undefined key may be set "
                        f"there): {shown}{more}.")
    return ToolOutput(
        answer=answer, data={"by_status": listing.counts},
        ranked=RankedList("keys", items, listing.total, params.offset, listing.by_file, scope_param=None),
        guidance=None if listing.total else _config_hint(ctx, params, reads, listing),
        limits_applied=limits, warnings=warnings, semantic_level=ctx.semantic_level,
        baseline_commit=ctx.commit, preview=[f"{i['key']}  [{i['status']}]" for i in items])


def _config_hint(ctx: QueryContext, params: ConfigParams, reads: list[markup.ConfigRead],
                 listing: surfaces.Listing) -> Guidance:
    # Filtered by status only, the listing's counts per status are the index's: no second listing.
    in_index = sum(int(c["count"]) for c in listing.counts) if not params.key_filter and not params.project \
        else surfaces.config_keys(ctx.conn, None, None, None, reads).total
    named = f" containing {_quoted(params.key_filter)}" if params.key_filter else ""
    where = f" in project {_quoted(params.project)}" if params.project else ""
    status = f" with status {params.status}" if params.status else ""
    return _empty_hint(ctx, "configuration keys", in_index, f"No configuration key{named}{where}{status}",
                       "surfaces_list_config_keys", [f for f, v in (("key_filter", params.key_filter),
                                                                    ("project", params.project),
                                                                    ("status", params.status)) if v])


class TableParams(ListParams):
    table_filter: str | None = None
    with_endpoints: bool = Field(default=False, description="Also the endpoints reaching each table (slow).")


PROCEDURES_SHOWN = 20
FORMER_SHOWN = 20


def _former_summary(table: dict[str, Any]) -> str:
    name = f"{table['schema']}.{table['table']}" if table.get("schema") else table["table"]
    if table.get("renamed_to"):
        return f"{name} was renamed to {table['renamed_to']} by a migration: under former_tables"
    if table.get("dropped"):
        return f"{name} was dropped by a migration: under former_tables"
    return f"{name}, which migrations name, is not in the model snapshot: under former_tables"


def _stem(procedure: dict[str, Any]) -> str:
    """`Cipher_ReadById` -> `Cipher_`: the prefix procedures of one table share."""
    name = str(procedure["procedure"])
    return name[:name.index("_") + 1] if "_" in name else name


# Document and key-value stores: their collections are no SQL tables (grandnode runs on MongoDB).
_DOCUMENT_STORES = {"mongodb.driver": "MongoDB", "ravendb.client": "RavenDB", "microsoft.azure.cosmos": "Cosmos DB",
                    "litedb": "LiteDB", "marten": "Marten"}


def _document_stores(ctx: QueryContext) -> list[str]:
    """The document stores the solution's projects reference as packages."""
    names = {str(r[0]).lower() for r in
             ctx.conn.execute("SELECT DISTINCT name FROM project_deps WHERE kind = 'package'")}
    return sorted({store for package, store in _DOCUMENT_STORES.items() if package in names})


@tool("surfaces_list_db_tables", TableParams)
def tables_tool(params: TableParams, repo_path: str) -> ToolOutput:
    """Use to see which database tables the code touches (EF Core, raw SQL, Dapper), with entities and
    symbols."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    limits: dict[str, Any] = {}
    listing = surfaces.db_tables(ctx.conn, params.table_filter)
    procedures = surfaces.db_procedures(ctx.conn, params.table_filter)
    items = _page(listing, params, limits)
    if params.with_endpoints:
        reaching = review.EndpointsReaching(ctx.conn)
        items = [{**t, "endpoints": reaching.of(t["symbols"], t.get("entities") or ())} for t in items[:20]]
    in_index = int(listing.counts[0]["tables_in_index"]) if listing.counts else listing.total
    guidance = None
    if not listing.total and not procedures and not listing.former:
        stores = _document_stores(ctx) if not in_index else []
        guidance = Guidance("hint", f"No SQL table in the index: the solution stores data through {', '.join(stores)}, "
                            "whose collections and documents are not tables (not indexed); symbols_search or "
                            "code_search_text find where it names them.") if stores else _empty_hint(
            ctx, "database tables", in_index, f"No table, DbSet or entity name contains '{params.table_filter}'",
            "surfaces_list_db_tables", ["table_filter"] if params.table_filter else [])
    answer = plural(listing.total, "database table") + (
        f" and {plural(len(procedures), 'stored procedure')}" if procedures else "")
    data: dict[str, Any] = {}
    warnings = list(ctx.warnings)
    if listing.migration_folders:
        data["migration_folders"] = listing.migration_folders
    former = listing.former
    if former:
        # Named only by migrations, not by the model snapshot covering them: not tables of the current schema.
        data["former_tables"] = former[:FORMER_SHOWN]
        if len(former) > FORMER_SHOWN:
            warnings.append(f"Showing {FORMER_SHOWN} of {len(former)} former tables: narrow with table_filter.")
    if procedures:
        # The tables are the paged list; procedures (299 in bitwarden/server) show their first few, and
        # table_filter narrows both (procedure names usually start with their table's).
        data["procedures"] = procedures[:PROCEDURES_SHOWN]
        if len(procedures) > PROCEDURES_SHOWN:
            warnings.append(f"Showing {PROCEDURES_SHOWN} of {len(procedures)} stored procedures: narrow with "
                            f"table_filter (a table or procedure name fragment, e.g. \"{_stem(procedures[0])}\").")
    answer += f" match '{params.table_filter}'" if params.table_filter else ""
    if former:
        answer += (f" ({_former_summary(former[0])})" if len(former) == 1 else
                   f" ({len(former)} more that migrations name are not in the model snapshot: renamed or dropped, "
                   "under former_tables)" if listing.by_snapshot else
                   f" ({len(former)} more that migrations renamed or dropped, under former_tables)")
    return ToolOutput(
        answer=answer + ".",
        data=data,
        ranked=RankedList("tables", items, listing.total, params.offset, listing.by_file, scope_param=None),
        guidance=guidance,
        limits_applied=limits, warnings=warnings, semantic_level=ctx.semantic_level,
        baseline_commit=ctx.commit, preview=[f"{i['table']}  {i['entities']}" for i in items])


class TraceParams(WorkspaceParams):
    entry_point: str = Field(description="A symbol id or a route like \"GET /api/orders/{id}\".")
    depth: int | None = None
    limit: int | None = None


def _entry_symbol(ctx: QueryContext, entry: str) -> tuple[str, dict[str, Any] | None]:
    text = entry.strip()
    if is_doc_id(text) or is_stable_id(text):
        return names.require(ctx.conn, text)["symbol_id"], None
    routes = surfaces.route_handlers(ctx.conn, text)
    if routes is None and names.is_plain_name(text):
        return names.require(ctx.conn, text)["symbol_id"], None
    if routes is None:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"'{entry}' is neither a symbol id nor a route.",
                             "Pass a symbol_id from symbols_search, or a route like \"GET /api/orders/{id}\" "
                             "from surfaces_list_endpoints.")
    handlers = {r["handler"] for r in routes if r["handler"]}
    if not handlers:
        raise RoslynMapError(ErrorCode.NOT_FOUND, f"No endpoint matches '{entry}'.",
                             "List them with surfaces_list_endpoints(path_filter=...).",
                             candidates=[{"entry_point": f"{r['method']} {r['route']}",
                                          **({"handler": r["handler"]} if r.get("handler") else {})}
                                         for r in surfaces.nearest_routes(ctx.conn, text)])
    if len(handlers) > 1:
        # Two apps (or two controllers) serving one template: only the handler tells them apart.
        same = len({(r["method"], r["route"]) for r in routes if r["handler"]}) == 1
        raise RoslynMapError(ErrorCode.AMBIGUOUS, f"'{entry}' matches {len(handlers)} endpoints"
                             + (" with the same route template." if same else "."),
                             "Pass the handler's symbol_id as entry_point (the candidates name each)." if same else
                             "Pass the exact route template or the handler's symbol_id.",
                             candidates=[{"entry_point": f"{r['method']} {r['route']}", "handler": r["handler"]}
                                         for r in routes])
    return handlers.pop(), routes[0]


@tool("graph_trace_feature", TraceParams)
def trace_tool(params: TraceParams, repo_path: str) -> ToolOutput:
    """Use to understand a feature end to end: the call tree from a symbol or HTTP route, through DI and
    mediator handlers, with each node's facts."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    limits: dict[str, Any] = {}
    requested = TRACE_DEPTH[0] if params.depth is None else params.depth
    depth = max(1, min(TRACE_DEPTH[1], requested))
    if depth != requested:
        limits["max_depth"] = {"requested": requested, "applied": depth}
    per_level = clamp("limit_per_level", params.limit, 50, 200, limits)
    root_id, route = _entry_symbol(ctx, params.entry_point)
    window = surfaces.lambda_window(route) if route else None
    walked = trace.walk(ctx.conn, root_id, depth, per_level, surfaces.di_implementations(ctx.conn),
                        surfaces.request_wrappers(ctx.conn), window, mapped_in=route.get("file") if route else None,
                        root_class=surfaces.route_class(ctx.conn, route) if route else None)
    tree, nodes = walked.graph, walked.graph.nodes
    annotated = surfaces.facts_of_symbols(ctx.conn, [root_id] + [n["symbol_id"] for n in nodes if n.get("symbol_id")])
    parents: dict[str, dict[str, Any]] = {}
    for edge in tree.edges:
        parents.setdefault(edge["to"], {"from": edge["from"], "kind": edge["kind"], **(
            {"via": edge["via"]} if edge.get("via") else {}), **(
            {"inferred": edge["inferred"]} if edge.get("inferred") else {}), **(  # an unbound call: where, and on what
            {k: edge[k] for k in ("unbound", "receiver", "file", "line") if k in edge} if edge.get("unbound") else {})})
    generic = trace.type_arguments(ctx.conn, tree.edges)
    for node in nodes:
        node["facts"] = [_compact(f) for f in annotated.get(node.get("symbol_id") or "", [])]
        node["from"] = parents.get(node.get("symbol_id") or f"?{node.get('name')}")
        if node.get("symbol_id") in generic:
            node["type_arguments"] = generic[node["symbol_id"]][0]
    root_facts = annotated.get(root_id, [])
    if window is not None and route is not None:  # the member maps other routes' lambdas too: this one's facts
        root_facts = [f for f in root_facts if f.get("file") == window.file and (
            window.start <= f["line"] <= window.end
            or (f["kind"] == "Route" and f["line"] == route["line"] and f.get("method") == route["method"]))]
    root = {**tree.root, "facts": [_compact(f) for f in root_facts]}
    fact_count = sum(len(n["facts"]) for n in nodes) + len(root["facts"])
    # Which tables this entry point touches, in one place (first node reaching each).
    tables: dict[str, dict[str, Any]] = {}
    procedures: dict[str, dict[str, Any]] = {}
    for node in [root, *nodes]:
        for fact in node["facts"]:
            if fact["kind"] == "DbTable" and surfaces.is_procedure(fact):
                procedures.setdefault(fact["key"].lower(), {"procedure": fact["key"], "via": node.get("symbol_id")})
            elif fact["kind"] == "DbTable":
                tables.setdefault(fact["key"].lower(), {"table": fact["key"], "via": node.get("symbol_id")})
    # A DbSet the context inherits from a package (Identity's `Users`) is no node (its property is external): the
    # table its entity is mapped to, via the node reading it.
    for table, via in surfaces.inherited_tables_read(ctx.conn, walked.external, [root, *nodes]):
        tables.setdefault(table.lower(), {"table": table, "via": via})
    # A generic repository's entity: the table of a type argument it was called with (inferred).
    every = trace.type_arguments(ctx.conn, tree.edges, every_caller=True)
    entity_tables = surfaces.entity_tables(ctx.conn) if every else {}
    for node in nodes:
        for entity in (e for args in every.get(node.get("symbol_id") or "", []) for e in args):
            if entity in entity_tables:
                tables.setdefault(entity_tables[entity].lower(), {"table": entity_tables[entity], "via": node[
                    "symbol_id"], "entity": entity, "inferred": "type_argument"})
    blind = sorted({n["name"] for n in nodes if n.get("unresolved")})
    answer = f"{len(nodes) - sum(1 for n in nodes if n.get('unresolved'))} nodes under {root.get('symbol_id')}" \
             f" within depth {depth}, {fact_count} facts"
    # Calls the compiler could not bind are nodes too (by name, receiver on the edge), counted apart.
    answer += (f", + {len(blind)} unbound calls ({', '.join(blind[:5])}{'…' if len(blind) > 5 else ''})"
               if blind else "") + "."
    stops = _stops(walked, tree)
    if stops["by_reason"]:
        answer += " Stopped: " + ", ".join(f"{c} {r}" for r, c in stops["by_reason"].items()) + "."
    return ToolOutput(
        answer=answer, data={"root": root, "route": route, "depth": depth, "tables": list(tables.values()),
                             **({"procedures": list(procedures.values())} if procedures else {}), "stops": stops},
        ranked=RankedList("nodes", nodes, len(nodes), scope_param=None, page_param=None,
                          elidable=("facts",)),
        warnings=ctx.warnings, limits_applied=limits, semantic_level=ctx.semantic_level, baseline_commit=ctx.commit,
        preview=[f"{'  ' * n['depth']}{n.get('symbol_id') or n.get('name')}  {len(n['facts'])} facts" for n in nodes])


STOP_EXAMPLES = 10


def _stops(walked: trace.Trace, tree: graph.Graph) -> dict[str, Any]:
    """Where the trace ended and why: per reason a count, the first places, external calls by target."""
    by_reason: dict[str, int] = {}
    for stop in walked.stops:
        by_reason[stop["reason"]] = by_reason.get(stop["reason"], 0) + 1
    if tree.truncated_levels:
        by_reason["level_limit"] = sum(tree.truncated_levels.values())
    external = sorted(walked.external.items(), key=lambda kv: (-kv[1], kv[0]))
    if external:
        by_reason["external"] = len(external)
    out: dict[str, Any] = {"by_reason": by_reason, "places": walked.stops[:STOP_EXAMPLES]}
    if external:  # package calls first: framework ones (System.*) are rarely where a feature goes on
        ranked = sorted(external, key=lambda kv: (_framework(kv[0]), -kv[1], kv[0]))
        out["external"] = [{"target": t, "calls": c} for t, c in ranked[:STOP_EXAMPLES]]
    if tree.truncated_levels:
        out["level_limit"] = {str(k): v for k, v in sorted(tree.truncated_levels.items())}
    if walked.noise:
        out["noise_dropped"] = walked.noise
    if walked.narrowed:  # dispatch edges marked `inferred: instantiated` stand for these
        out["implementations_not_instantiated"] = walked.narrowed
    return out


def _framework(symbol_id: str) -> bool:
    return symbol_id.split(":", 1)[-1].startswith(("System.", "Microsoft.Extensions."))


def _compact(fact: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in fact.items() if k not in {"symbol_id", "col", "file"} and v is not None}


FactKind = Literal["di", "middleware", "logs", "exceptions", "retries"]
# The list tools these kinds replaced (one tool with a kind costs a quarter of four in the tool list).
FORMER = {"surfaces_list_di_registrations": ("di", {"service_filter": "filter", "lifetime": "level"}),
          "surfaces_list_middleware": ("middleware", {}),
          "surfaces_list_log_templates": ("logs", {"text_filter": "filter"}),
          "surfaces_list_exceptions": ("exceptions", {"type_filter": "filter"})}


class FactListParams(ListParams):
    kind: FactKind
    filter: str | None = None  # substring of the service, template, exception type or retry policy
    level: str | None = Field(default=None, description="di: lifetime; logs: log level.")
    project: str | None = None
    file: str | None = Field(default=None, description="Path substring.")
    symbol_id: str | None = None
    depth: int | None = None  # exceptions with symbol_id: levels of callees (default 3, max 6)


def _scoped_answer(noun: str, listing: surfaces.Listing, params: FactListParams, counted: str) -> str:
    where = "".join(f" in {label} '{value}'" for label, value in (("project", params.project), ("file", params.file))
                    if value)
    parts = ", ".join(f"{c['count']} {c[counted]}" for c in listing.counts[:6])
    noun = KIND_WORDS[params.kind][0] if listing.total == 1 else noun
    return f"{listing.total} {noun}{where}" + (f" ({parts})" if parts else "") + "."


# Per kind: one of the listed (singular), what `filter` matches, what `level` is.
KIND_WORDS: dict[str, tuple[str, str | None, str | None]] = {
    "di": ("DI registration", "service or implementation", "lifetime"),
    "middleware": ("middleware", None, None),
    "logs": ("log template", "template", "level"),
    "retries": ("retry policy", "policy or handled exception", None),
    "exceptions": ("thrown exception", "type", None)}


def _scoped_hint(ctx: QueryContext, params: FactListParams, what: str, in_index: Callable[[], int]) -> Guidance:
    """An empty list of a kind: what its filters asked for, and how many the index holds."""
    one, matched, level = KIND_WORDS[params.kind]
    asked = [(f" whose {matched} contains {_quoted(params.filter)}", "filter", params.filter if matched else None),
             (f" of {level} {_quoted(params.level)}", "level", params.level if level else None),
             (f" in project {_quoted(params.project)}", "project", params.project if not params.symbol_id else None),
             (f" in a file matching {_quoted(params.file)}", "file", params.file if not params.symbol_id else None),
             (f" reached from {params.symbol_id}", "symbol_id", params.symbol_id)]
    given = [(text, name) for text, name, value in asked if value]
    return _empty_hint(ctx, what, in_index() if given else 0, f"No {one}" + "".join(t for t, _ in given),
                       f'surfaces_list(kind="{params.kind}")', [name for _, name in given])


def _scoped_output(ctx: QueryContext, params: FactListParams, listing: surfaces.Listing, name: str, what: str,
                   counted: str, preview: list[str], limits: dict[str, Any], items: list[dict[str, Any]],
                   in_index: Callable[[], int]) -> ToolOutput:
    return ToolOutput(
        answer=_scoped_answer(what, listing, params, counted), data={f"by_{counted}": listing.counts},
        ranked=RankedList(name, items, listing.total, params.offset, listing.by_file, scope_param="file"),
        guidance=None if listing.total else _scoped_hint(ctx, params, what, in_index),
        limits_applied=limits, warnings=ctx.warnings, semantic_level=ctx.semantic_level,
        baseline_commit=ctx.commit, preview=preview)


@tool("surfaces_list", FactListParams)
def facts_tool(params: FactListParams, repo_path: str) -> ToolOutput:
    """Use to list a service's wiring by kind: DI registrations, middleware in run order, log templates,
    exceptions thrown (with symbol_id: what it may throw via calls), retry policies."""
    ctx = open_context(repo_path, params.workspace_id, params.consistency)
    limits: dict[str, Any] = {}
    if params.kind == "di":
        return _di(ctx, params, limits)
    if params.kind == "middleware":
        listing = surfaces.middleware(ctx.conn, params.project, params.file)
        items = _page(listing, params, limits)
        preview = [f"{i['order']:>3} {i['middleware']}  ({i['file']}:{i['line']})" for i in items]
        return _scoped_output(ctx, params, listing, "middleware", "middleware", "project", preview, limits, items,
                              lambda: surfaces.middleware(ctx.conn, None, None).total)
    if params.kind == "logs":
        listing = surfaces.log_templates(ctx.conn, params.filter, params.level, params.project, params.file)
        items = _page(listing, params, limits)
        preview = [f"{i.get('level') or '?':<11} {i['template']}" for i in items]
        return _scoped_output(ctx, params, listing, "logs", "log templates", "level", preview, limits, items,
                              lambda: surfaces.log_templates(ctx.conn, None, None, None, None).total)
    if params.kind == "retries":
        listing = surfaces.retry_policies(ctx.conn, params.filter, params.project, params.file)
        items = _page(listing, params, limits)
        preview = [f"{i['policy']} x{i.get('retries', '?')}  ({i['file']}:{i['line']})" for i in items]
        return _scoped_output(ctx, params, listing, "policies", "retry policies", "policy", preview, limits, items,
                              lambda: surfaces.retry_policies(ctx.conn, None, None, None).total)
    return _exceptions(ctx, params, limits)


def _di(ctx: QueryContext, params: FactListParams, limits: dict[str, Any]) -> ToolOutput:
    """Every registration (AddScoped/AddTransient/AddSingleton, TryAdd*, keyed, typeof/factory/instance forms)
    and every Add* extension on the service collection, in source order."""
    listing = surfaces.di_registrations(ctx.conn, params.filter, params.level, params.project, params.file)
    if warning := surfaces.unbound_registrations_warning(surfaces.unbound_registrations(ctx.conn)):
        ctx.warnings.append(warning)
    items = _page(listing, params, limits)
    preview = [f"{i.get('lifetime') or '?':<9} {i['service']}" + (f" -> {i['implementation']}" if i.get(
        "implementation") and i["implementation"] != i["service"] else "") + (f"  ({i['via']})" if i.get("via") else "")
        for i in items]
    return _scoped_output(ctx, params, listing, "registrations", "DI registrations", "lifetime", preview, limits, items,
                          lambda: surfaces.di_registrations(ctx.conn, None, None, None, None).total)


def _exceptions(ctx: QueryContext, params: FactListParams, limits: dict[str, Any]) -> ToolOutput:
    """Every `throw new T`, throw expression and rethrow; with symbol_id, what that member may throw: its own
    throws and those of the solution's methods it calls (throw helpers included), each with its call path.
    Package code is not followed."""
    if params.symbol_id:
        requested = TRACE_DEPTH[0] if params.depth is None else params.depth
        depth = max(1, min(TRACE_DEPTH[1], requested))
        if depth != requested:
            limits["max_depth"] = {"requested": requested, "applied": depth}
        root = names.require(ctx.conn, params.symbol_id)["symbol_id"]
        listing = surfaces.exceptions_through_calls(ctx.conn, root, depth)
        if params.filter:
            needle = params.filter.strip().lower()
            kept = [i for i in listing.items if needle in i["exception"].lower()]
            listing = surfaces.Listing(kept, len(kept), listing.by_file, listing.counts)
    else:
        listing = surfaces.thrown_exceptions(ctx.conn, params.filter, params.project, params.file)
    items = _page(listing, params, limits)
    preview = [f"{i['exception']}  in {i['thrown_in']}" for i in items]
    return _scoped_output(ctx, params, listing, "exceptions", "thrown exceptions", "exception", preview, limits,
                          items, lambda: surfaces.thrown_exceptions(ctx.conn, None, None, None).total)
