"""Architectural facts: endpoints, configuration keys, database tables, and the facts of a symbol."""

from __future__ import annotations

import difflib
import functools
import re
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson

from roslynmap.model.ids import name_from_doc_id
from roslynmap.model.kinds import FUNCTIONS_ROUTE_PREFIX
from roslynmap.query import graph, projectrefs, transformers
from roslynmap.query.dispatch import Lineage
from roslynmap.query.keys import ids_of, key_of
from roslynmap.query.projectrefs import project_folders, project_of_path
from roslynmap.query.sql import in_chunks, memo

if TYPE_CHECKING:
    from roslynmap.query.markup import ConfigRead

FACT_COLUMNS = "fa.kind, fa.symbol_id, fa.line, fa.col, fa.confidence, fa.key, fa.detail, f.path"
FACT_FROM = "facts fa LEFT JOIN files f ON f.id = fa.file_id"
# Facts the graph reads that say nothing to an agent about the member (query/dispatch.py, query/typeargs.py): not in
# cards or traces (a trace node says its `type_arguments` itself).
INTERNAL_FACTS = " AND fa.kind NOT IN ('ReceiverType', 'GenericCall')"
HTTP_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "ANY")




class RequestWrapper(NamedTuple):
    """A type DI runs around a mediator request's handler."""
    kind: str            # "Behavior" (IPipelineBehavior<,>) or "Decorator" (of a handler interface)
    service_id: str      # what it is registered as
    implementation_id: str


def _detail(raw: str | None) -> dict[str, Any]:
    if not raw:
        return {}
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _fact(row: sqlite3.Row | tuple[Any, ...]) -> dict[str, Any]:
    kind, symbol_id, line, col, confidence, key, detail, path = row
    return {"kind": kind, "key": key, "symbol_id": symbol_id, "file": path, "line": line, "col": col,
            "confidence": confidence, **_detail(detail)}


@dataclass
class Listing:
    items: list[dict[str, Any]]
    total: int
    by_file: list[dict[str, Any]]
    counts: list[dict[str, Any]]


def _by_file(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    counts: dict[str, int] = {}
    for item in items:
        if item.get("file"):
            counts[item["file"]] = counts.get(item["file"], 0) + 1
    return [{"file": f, "count": c} for f, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][:15]


def facts_of_kind(conn: sqlite3.Connection, kind: str) -> list[dict[str, Any]]:
    rows = conn.execute(f"SELECT {FACT_COLUMNS} FROM {FACT_FROM} WHERE fa.kind = ?"
                        " ORDER BY f.path, fa.line, fa.col, fa.id", (kind,)).fetchall()
    return [_fact(r) for r in rows]


MAX_GROUP_NESTING = 8


def join_route(prefix: str, template: str) -> str:
    """A MapGroup prefix and a route template (the bridge's RouteTemplates.Join: groups always nest)."""
    return "/" + (prefix.rstrip("/") + "/" + template.lstrip("/")).strip("/")


class GroupPrefixes:
    """The prefixes of the route groups handed to a method's route-builder parameter, from the
    RouteGroupCall facts of every caller, followed through callers that pass their own group along."""

    def __init__(self, calls: list[dict[str, Any]]) -> None:
        self._calls: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for call in calls:
            if call.get("target") and call.get("parameter") is not None:
                self._calls.setdefault((call["target"], int(call["parameter"])), []).append(call)

    def of(self, member: str, parameter: int,
           seen: frozenset[tuple[str, int]] = frozenset()) -> list[tuple[str, tuple[str, ...]]]:
        """Every full prefix with the API versions its groups declare (deduplicated, in call order); [] when
        no caller hands that parameter a group."""
        out: list[tuple[str, tuple[str, ...]]] = []
        for call in self._calls.get((member, parameter), []):
            outer = (call.get("group_member"), call.get("group_parameter"))
            outer_groups: list[tuple[str, tuple[str, ...]]] = []
            if outer[0] and outer[1] is not None and outer not in seen and len(seen) < MAX_GROUP_NESTING:
                key = (str(outer[0]), int(outer[1]))
                outer_groups = self.of(key[0], key[1], seen | {key})
            for prefix, versions in outer_groups or [("", ())]:
                full = join_route(prefix, call["key"]) if prefix else call["key"]
                group = (full, tuple(sorted({*versions, *(call.get("api_versions") or [])})))
                if group not in out:
                    out.append(group)
        return out


_PARAMETER = re.compile(r"\{([^}=:?*]+)[^}]*\}")
_CONFIDENCE_RANK = {"high": 2, "medium": 1, "low": 0}


def _apply_pattern(pattern: str, action: dict[str, Any], pattern_file: str | None = None,
                   found: transformers.Transformers | None = None,
                   defaults: Mapping[str, str] | None = None) -> tuple[str, str | None, str | None] | None:
    """A conventional pattern with {controller}, {action} (and {area}) filled in for one action, each value as its
    parameter's transformer writes it (`{action:slugify}`), that transformer's type, and the route's `shortest` form
    (_shortest); None when the pattern cannot reach the action. A route value the pattern has no parameter for comes
    from the route's `defaults` (`new { controller = "Login", action = "Index" }`, MapAreaControllerRoute's area) and
    must be the action's own (route values compare case-insensitively); without one, the action must have no area
    and the pattern cannot reach it at all for a controller or an action."""
    names = {m.group(1).lower(): m.group(0) for m in _PARAMETER.finditer(pattern)}
    defaults = defaults or {}
    for part in _FILLED:
        value = str(action.get(part) or "")
        if part in names:
            if part == "area" and not value:  # {area} (most often {area:exists}) reaches area controllers only
                return None
        elif part in defaults:
            if defaults[part].lower() != value.lower():
                return None
        elif value:
            return None
    route, by = pattern, None
    for part in _FILLED:
        if part in names:
            value, transformer = transformers.conventional_value(pattern_file, names[part], action[part], found) \
                if found else (action[part], None)
            route, by = route.replace(names[part], value), by or transformer
    return route, by, _shortest(pattern, route, action)


_SEGMENT_PARAMETER = re.compile(r"\{([^{}]*)\}")
_FILLED = ("controller", "action", "area")


def _left_out(segment: str, values: Mapping[str, Any] | None = None) -> str | None:
    """How a URL may leave out this segment of a template, when it leaves out every segment after it too:
    "optional" (`{id?}`, a catch-all `{*rest}`), "default" (`{page=1}`), "filled" (in a conventional pattern filled
    with `values`, `{action=Index}` for an action whose value is that default: route values compare
    case-insensitively); None when it may not (a literal, `{id}`, `{controller=Home}` filled with Blog)."""
    match = _SEGMENT_PARAMETER.fullmatch(segment)
    if match is None:
        return None
    inner = match.group(1)
    if inner.startswith("*") or inner.endswith("?"):
        return "optional"
    if "=" not in inner:
        return None
    declared, default = inner.split("=", 1)
    name = declared.split(":", 1)[0].strip().lower()
    if values is None or name not in _FILLED:
        return "default"
    return "filled" if str(values.get(name) or "").lower() == default.strip().lower() else None


def _shortest(pattern: str, route: str, action: dict[str, Any]) -> str | None:
    """The shortest URL reaching a conventional route, when the pattern's defaults let it leave out filled segments
    (`{controller=Home}/{action=Index}/{id?}`: HomeController.Index is `/`, BlogController.Index `/Blog`; every URL
    between that and the full route reaches the action too); None when no filled segment may be left out (the route
    as listed says the rest: `/Home/About/{id?}`)."""
    written, filled = pattern.strip("/").split("/"), route.strip("/").split("/")
    if len(written) != len(filled):
        return None
    keep, reasons = len(written), []
    while keep > 0 and (reason := _left_out(written[keep - 1], action)) is not None:
        reasons.append(reason)
        keep -= 1
    return "/" + "/".join(filled[:keep]) if "filled" in reasons else None


def _route_defaults(pattern: Mapping[str, Any]) -> dict[str, str]:
    """The controller, action and area a conventional route's defaults give (bridge MinimalRouteFacts)."""
    return {part: str(pattern[f"default_{part}"]) for part in _FILLED if pattern.get(f"default_{part}")}


def _conventional(patterns: list[dict[str, Any]], actions: list[dict[str, Any]],
                  found: transformers.Transformers | None = None) -> list[dict[str, Any]]:
    """Each conventional pattern applied to every controller action without attribute routes (one route
    per verb of its template-less [HttpGet]/[HttpPost]..., else ANY); a pattern no action fits is
    listed as written."""
    routes: list[dict[str, Any]] = []
    for pattern in patterns:
        expanded = 0
        for action in actions:
            # Defaults read at run time matter only where the pattern has no {controller} and {action} of its own.
            unknown = pattern.get("defaults_unknown") and not {"controller", "action"} <= {
                m.group(1).lower() for m in _PARAMETER.finditer(pattern["key"])}
            applied = None if unknown else _apply_pattern(pattern["key"], action, pattern["file"], found,
                                                          _route_defaults(pattern))
            if applied is None:
                continue
            route, transformed_by, shortest = applied
            expanded += 1
            confidence = min(pattern["confidence"], action["confidence"], key=lambda c: _CONFIDENCE_RANK.get(c, 0))
            for verb in action.get("verbs") or ["ANY"]:
                routes.append({"method": verb, "route": route, "handler": action["symbol_id"], "file": action["file"],
                               "line": action["line"], "source": "conventional", "confidence": confidence,
                               "pattern": pattern["key"], "mapped_at": f"{pattern['file']}:{pattern['line']}",
                               **({"shortest": shortest} if shortest is not None else {}),
                               **({"dynamic_parts": pattern["dynamic_parts"]} if pattern.get("dynamic_parts") else {}),
                               **({"transformed_by": transformed_by} if transformed_by else {})})
        if not expanded:
            # No action fits: the pattern as written, handled by no action (not by the method that mapped it,
            # which a trace from a URL would otherwise start at: eShopOnWeb's `GET /order/my-orders` began at Main).
            routes.append({**_route_item(pattern), "handler": None, "no_action": True,
                           **({"defaults_unknown": True} if pattern.get("defaults_unknown") else {})})
    return routes


def _conventional_in_scope(conn: sqlite3.Connection, patterns: list[dict[str, Any]],
                           found: transformers.Transformers) -> list[dict[str, Any]]:
    """Each app's conventional patterns over the controllers it can reach: its own project's and those of the
    projects it references (ASP.NET's application parts), not every controller of the solution (bitwarden/server
    maps the default route in ten hosts: each host's controllers once, not ten times each)."""
    project_of: dict[str, int] = dict(conn.execute("SELECT path, project_id FROM files").fetchall())
    edges = projectrefs.project_references(conn)
    actions = facts_of_kind(conn, "ControllerAction")
    routes: list[dict[str, Any]] = []
    for pattern in patterns:
        app = project_of.get(pattern["file"])
        scope = None if app is None else {app, *projectrefs.referenced(edges, [app])}
        routes += _conventional([pattern], [a for a in actions if scope is None or project_of.get(a["file"]) in scope],
                                found)
    return routes


@dataclass(frozen=True)
class LambdaWindow:
    """Where a route's lambda handler is: the member holding it (the route's `handler`) calls, for this route,
    only what the lambda's lines call (TodoApi maps five routes' lambdas in one MapTodos)."""
    handler: str
    file: str
    start: int
    end: int


def lambda_window(route: dict[str, Any]) -> LambdaWindow | None:
    """The window of a route whose handler is a lambda in its enclosing member; None for any other handler."""
    if route.get("handler_kind") != "lambda" or not route.get("handler") or not route.get("file") \
            or route.get("handler_line") is None or route.get("handler_end_line") is None:
        return None
    return LambdaWindow(str(route["handler"]), str(route["file"]), int(route["handler_line"]),
                        int(route["handler_end_line"]))


def route_class(conn: sqlite3.Connection, route: dict[str, Any]) -> str | None:
    """The controller an action inherited from a base class runs on: the route is placed at that controller's name
    (bridge AttributeRouteFacts.InheritedActions), a class deriving from the handler's own. None for any other route."""
    handler, file, line = route.get("handler"), route.get("file"), route.get("line")
    if not handler or not file or line is None:
        return None
    owner = conn.execute("SELECT container_id FROM symbols WHERE symbol_id = ? LIMIT 1", (handler,)).fetchone()
    rows = conn.execute("SELECT s.symbol_id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ?"
                        " AND s.line = ? AND s.kind = 'Class'", (file, line)).fetchall()
    if owner is None or len(rows) != 1 or rows[0][0] == owner[0]:
        return None
    # Only a class deriving from the handler's: then the base's `this` calls run its overrides.
    placed = str(rows[0][0])
    return placed if owner[0] in Lineage(conn).line(placed) else None


def fallback_actions(conn: sqlite3.Connection, route: dict[str, Any]) -> list[str]:
    """The controller actions a `MapFallbackToController(action, controller)` route runs: the methods named `action`
    of the solution's `{controller}Controller` (or `{controller}`) classes."""
    action, controller = route.get("fallback_action"), route.get("fallback_controller")
    if not action or not controller:
        return []
    rows = conn.execute(
        "SELECT m.symbol_id, m.project_id FROM symbols m JOIN symbols c ON c.symbol_id = m.container_id"
        " WHERE m.kind = 'Method' AND m.name = ? AND c.name IN (?, ?) AND c.kind = 'Class'",
        (action, f"{controller}Controller", controller)).fetchall()
    # The app mapping the route runs its own controller (or one of a project it references), not another app's.
    if (mapping := projectrefs.file_projects(conn, [route.get("file")]).get(str(route.get("file")))) is not None:
        seen = {mapping} | projectrefs.referenced(projectrefs.project_references(conn), [mapping])
        rows = [r for r in rows if int(r[1]) in seen]
    return sorted({str(r[0]) for r in rows})


def config_sources(conn: sqlite3.Connection, hosts: Iterable[str]) -> list[dict[str, Any]]:
    """The configuration sources the code of these hosts (their own, or a project they reference: Sonarr adds its
    config.xml in a library the host calls) adds, whose keys the index cannot see (bridge ConfigFacts.Source:
    `AddXmlFile(configPath)`, `AddEnvironmentVariables()`, Key Vault...), in file order."""
    ids = {name: pid for pid, name in conn.execute("SELECT id, name FROM projects")}
    starts = [ids[h] for h in hosts if h in ids]
    reach = projectrefs.referenced(projectrefs.project_references(conn), starts) | set(starts)
    found = facts_of_kind(conn, "ConfigSource")
    files = projectrefs.file_projects(conn, [f["file"] for f in found])
    return [f for f in found if files.get(f["file"]) in reach]


def _route_item(fact: dict[str, Any]) -> dict[str, Any]:
    item = {"method": fact.get("method", "ANY"), "route": fact["key"], "handler": fact.get("handler")
            or fact["symbol_id"], "file": fact["file"], "line": fact["line"], "source": fact.get("source"),
            "confidence": fact["confidence"]}
    for extra in ("handler_kind", "handler_line", "handler_end_line", "destination", "fallback_file", "fallback_page",
                  "fallback_action", "fallback_controller", "api_versions", "via", "dynamic_parts",
                  "pattern", "shortest"):  # an attribute route's `{action}` filled in: as written, and its shortest URL
        if fact.get(extra) is not None:
            item[extra] = fact[extra]
    return item


_PAGE_HANDLER = re.compile(r"^On(Get|Post|Put|Delete|Patch|Head|Options)(\w*?)(?:Async)?$")


def _classes_named(conn: sqlite3.Connection, name: str) -> list[tuple[str, str | None]]:
    """(symbol_id, file) of the classes with this simple name (a qualified name narrows to its id)."""
    short = name.rsplit(".", 1)[-1]
    rows = conn.execute("SELECT s.symbol_id, f.path FROM symbols s LEFT JOIN files f ON f.id = s.file_id "
                        "WHERE s.name = ? AND s.kind = 'Class' ORDER BY f.path", (short,)).fetchall()
    found = [(str(r[0]), r[1]) for r in rows]
    if "." in name:
        found = [c for c in found if c[0] == f"T:{name}"] or found
    return found


def _beside(candidates: list[tuple[str, str | None]], markup: str, only_one: bool = True) -> str | None:
    """The class of a page or component: its code-behind (`Index.cshtml.cs`), else one in the same
    folder, else (`only_one`: a page's `@model`, named anywhere) the only one."""
    folder = markup.rsplit("/", 1)[0] + "/"
    for hit in ([c for c, f in candidates if f == markup + ".cs"],
                [c for c, f in candidates if f and f.startswith(folder)]):
        if hit:
            return hit[0]
    return candidates[0][0] if only_one and len(candidates) == 1 else None


def _razor_routes(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Razor Pages: one route per handler method of the page's model (OnGet, OnPostAsync ->
    GET/POST; OnPostApplyCoupon -> POST ...?handler=ApplyCoupon), and GET by the model when it has no OnGet (the
    page renders). Blazor components: GET per @page."""
    routes: list[dict[str, Any]] = []
    for page in facts_of_kind(conn, "RazorPage"):
        base = {"route": page["key"], "file": page["file"], "line": page["line"], "source": "razor_page",
                "confidence": page["confidence"], **({"area": page["area"]} if page.get("area") else {})}
        model = _beside(_classes_named(conn, page["model"]), page["file"]) if page.get("model") else None
        handlers = conn.execute("SELECT symbol_id, name FROM symbols WHERE container_id = ? AND kind = 'Method' "
                                "ORDER BY line", (model,)).fetchall() if model else []
        renders = False
        for symbol_id, name in handlers:
            match = _PAGE_HANDLER.match(name)
            if not match:
                continue
            verb, named = match.group(1).upper(), match.group(2)
            renders = renders or (verb == "GET" and not named)
            # A named handler is chosen by `?handler=Name`, or by the path when the page route has {handler?}.
            in_path = re.sub(r"\{handler\??\}", named, page["key"]) if named else page["key"]
            named_route = in_path if in_path != page["key"] else f"{page['key']}?handler={named}"
            routes.append({**base, "method": verb, "handler": symbol_id, "model": model,
                           **({"route": named_route, "page_handler": named} if named else {})})
        # A page renders on GET with no OnGet of its own (Contoso's Courses/Create has only OnPostAsync).
        if not renders:
            routes.append({**base, "method": "GET", "handler": model, **({"model": model} if model else {})})
    for component in facts_of_kind(conn, "RazorComponent"):
        # A component is the class its file declares: one of the same name elsewhere is another class (MudBlazor.Docs'
        # razor-only Pages/Index.razor was served by Pages/Api/Index.razor.cs's class). None: only markup declares it.
        handler = _beside(_classes_named(conn, component["component"]), component["file"], only_one=False)
        routes.append({"method": "GET", "route": component["key"], "handler": handler, "file": component["file"],
                       "line": component["line"], "source": "blazor", "confidence": component["confidence"],
                       **({"injects": component["injects"]} if component.get("injects") else {})})
    return routes


def wrapped_routes(wrappers: list[dict[str, Any]], calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Route facts for the calls of route wrappers (a method of the solution mapping a route from its own
    parameters: jasontaylordev/CleanArchitecture's `groupBuilder.MapPut(UpdateTodoItem, "{id}")` calling
    `MapPut(this IEndpointRouteBuilder builder, Delegate handler, string pattern)`): the pattern, handler and
    group come from the call's arguments, the verb from the wrapper. A call whose pattern is not a constant
    (and has no default) maps nothing we can name."""
    by_wrapper: dict[str, list[dict[str, Any]]] = {}
    for wrapper in wrappers:
        if wrapper.get("symbol_id"):
            by_wrapper.setdefault(wrapper["symbol_id"], []).append(wrapper)
    routes: list[dict[str, Any]] = []
    for call in calls:
        for wrapper in by_wrapper.get(call["key"], []):
            pattern = call.get(f"arg{wrapper['pattern_parameter']}", wrapper.get("pattern_default"))
            if pattern is None:
                continue
            handler_at = wrapper.get("handler_parameter")
            group_at = wrapper.get("group_parameter")
            prefix = str(call.get(f"group{group_at}", "")) if group_at is not None else ""
            route = join_route(join_route(prefix, str(wrapper.get("prefix") or "")), str(pattern))
            fact = {"kind": "Route", "key": route, "symbol_id": call["symbol_id"], "file": call["file"],
                    "line": call["line"], "col": call.get("col"), "confidence": wrapper["confidence"],
                    "method": wrapper["key"], "source": "minimal", "via": wrapper["symbol_id"],
                    # A handler the wrapper itself holds (`builder.MapGet(path, () => ...)` inside it) is the wrapper's.
                    "handler": (call.get(f"handler{handler_at}") or call["symbol_id"]) if handler_at is not None
                    else wrapper["symbol_id"]}
            if handler_at is not None and call.get(f"lambda{handler_at}") is not None:
                fact.update(handler_kind="lambda", handler_line=call[f"lambda{handler_at}"],
                            handler_end_line=call.get(f"lambda{handler_at}_end"))
            if group_at is not None and call.get(f"group{group_at}_parameter") is not None:
                fact.update(group_member=call["symbol_id"], group_parameter=call[f"group{group_at}_parameter"],
                            group_is_route_group=bool(call.get(f"group{group_at}_is_route_group")))
            routes.append(fact)
    return routes


class FastEndpointsPrefixes:
    """What FastEndpoints puts around each endpoint's route: the app's `RoutePrefix` (UseFastEndpoints) or the
    endpoint's RoutePrefixOverride, then the group's prefix (`Group<T>()`, T's constructor `Configure("admin",
    ...)`, a SubGroup's parents first), and the endpoint's version (`Version(2)`, else the app's DefaultVersion;
    `v2` after the route, before it with PrependToRoute, or in place of the app's RouteTemplate)."""

    def __init__(self, conn: sqlite3.Connection, groups: list[dict[str, Any]],
                 route_prefixes: list[dict[str, Any]], versioning: list[dict[str, Any]]) -> None:
        self._groups = {g["symbol_id"]: g for g in groups if g.get("symbol_id")}
        self._by_name: dict[str, list[dict[str, Any]]] = {}
        for group in groups:
            self._by_name.setdefault(str(group.get("name")), []).append(group)
        # An app's options apply to the endpoints of the app's project and of the projects it references
        # (endpoint libraries); another app of the solution keeps its own.
        settings = route_prefixes + versioning
        self._project_of: dict[str, int] = dict(conn.execute("SELECT path, project_id FROM files").fetchall()) \
            if settings else {}
        self._app_of: dict[int, int] = {}
        self._prefix: dict[int, str] = {}
        self._versioning: dict[int, dict[str, str]] = {}
        apps: dict[int, None] = {}  # in the order their settings come
        for fact in settings:
            app = self._project_of.get(fact["file"])
            if app is None:
                continue
            apps[app] = None
            if fact["kind"] == "FastEndpointsRoutePrefix":
                self._prefix.setdefault(app, str(fact["key"]))
            else:
                self._versioning.setdefault(app, {}).setdefault(str(fact["key"]), str(fact.get("value", "")))
        edges = projectrefs.project_references(conn) if apps else {}
        for app in apps:  # a library two apps reference takes the first app's options
            for project in [app, *sorted(projectrefs.referenced(edges, [app]))]:
                self._app_of.setdefault(project, app)

    def route(self, fact: dict[str, Any]) -> str:
        app = self._app_of.get(self._project_of.get(fact["file"], -1), -1)
        inner = str(fact["key"])
        parts = self._group_chain(fact.get("fe_group"), fact.get("fe_group_name"))
        if parts:
            inner = join_route("/" + "/".join(p.strip("/") for p in parts if p.strip("/")), inner)
        inner = self._versioned(inner, fact.get("fe_version"), self._versioning.get(app, {}))
        app_prefix = fact["fe_route_prefix"] if fact.get("fe_route_prefix") is not None else self._prefix.get(app, "")
        return join_route("/" + app_prefix.strip("/"), inner) if app_prefix.strip("/") else inner

    @staticmethod
    def _versioned(route: str, version: int | None, options: dict[str, str]) -> str:
        number = version if version is not None else int(options.get("DefaultVersion") or 0)
        if number <= 0:
            return route
        segment = f"{options.get('Prefix', 'v')}{number}"
        template = options.get("RouteTemplate")
        if template and template in route:
            return route.replace(template, segment, 1)
        if options.get("PrependToRoute") == "true":
            return join_route("/" + segment, route)
        return join_route(route, segment)

    def _group_chain(self, group_id: str | None, name: str | None) -> list[str]:
        chain: list[str] = []
        group = self._find(group_id, name)
        while group is not None and len(chain) < MAX_GROUP_NESTING:
            chain.insert(0, str(group["key"]))
            group = self._find(group.get("parent"), group.get("parent_name"))
        return chain

    def _find(self, group_id: str | None, name: str | None) -> dict[str, Any] | None:
        if group_id:
            return self._groups.get(group_id)
        named = self._by_name.get(str(name), []) if name else []
        return named[0] if len(named) == 1 else None


def _all_routes(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    groups = GroupPrefixes(facts_of_kind(conn, "RouteGroupCall"))
    route_facts = facts_of_kind(conn, "Route") + wrapped_routes(facts_of_kind(conn, "RouteWrapper"),
                                                                facts_of_kind(conn, "RouteWrapperCall"))
    patterns = [f for f in route_facts if f.get("source") == "conventional"]
    token_transformers = transformers.Transformers(conn)
    routes = _conventional_in_scope(conn, patterns, token_transformers) if patterns else []
    routes.extend(_razor_routes(conn))
    fastendpoints = FastEndpointsPrefixes(conn, facts_of_kind(conn, "FastEndpointsGroup"),
                                          facts_of_kind(conn, "FastEndpointsRoutePrefix"),
                                          facts_of_kind(conn, "FastEndpointsVersioning"))
    functions_prefix = _functions_route_prefixes(conn) if any(
        f.get("source") == "azure_functions" for f in route_facts) else None
    for fact in route_facts:
        if fact.get("source") == "conventional":
            continue
        if fact.get("source") == "fastendpoints":
            fact = {**fact, "key": fastendpoints.route(fact)}
        if functions_prefix is not None and fact.get("source") == "azure_functions":
            fact = {**fact, "key": join_route(functions_prefix(fact["file"]), fact["key"])}
        transformer = token_transformers.of(fact["file"], transformers.TOKEN) if fact.get("template") else None
        if transformer is not None:  # `[controller]/[action]` as a RouteTokenTransformerConvention writes them
            rewritten = transformers.tokens_transformed(
                fact["template"], {k: fact.get(k) for k in ("controller", "action", "area")}, transformer)
            fact = {**fact, "key": rewritten or fact["key"]}
        item = _route_item(fact)
        if transformer is not None:
            item["transformed_by"] = transformer.type_id
        member, parameter = fact.get("group_member"), fact.get("group_parameter")
        # Mapped on a group the caller passes in: one route per group handed over (as written when none is).
        prefixes = groups.of(member, int(parameter), frozenset({(member, int(parameter))})) \
            if member and parameter is not None else []
        if prefixes:
            for prefix, versions in prefixes:
                route = {**item, "route": join_route(prefix, fact["key"])}
                if versions and not fact.get("api_versions_mapped"):  # MapToApiVersion: its own versions alone
                    route["api_versions"] = sorted({*versions, *(item.get("api_versions") or [])})
                routes.append(route)
        else:
            if member and parameter is not None and fact.get("group_is_route_group"):
                # Mapped on a RouteGroupBuilder its method is handed, and no call of the solution hands one (a
                # registration by reflection): the route as written lacks the group's prefix, and says so. (An
                # IEndpointRouteBuilder handed over that way is most often the app itself: eShopOnWeb's AddRoute.)
                item["group_prefix"] = "unknown"
            routes.append(item)
    return routes


def _functions_route_prefixes(conn: sqlite3.Connection) -> Callable[[str | None], str]:
    """The Functions host's route prefix for a function's file: its project's host.json (roslyn/functions_host.py),
    else the host's default, `api`."""
    folders = project_folders(conn)
    by_project = {project_of_path(folders, f["file"]): str(f["key"]) for f in facts_of_kind(conn, "FunctionsHost")}
    return lambda file: by_project.get(project_of_path(folders, file), FUNCTIONS_ROUTE_PREFIX)


def endpoints(conn: sqlite3.Connection, path_filter: str | None, method: str | None) -> Listing:
    routes = [dict(r) for r in memo(conn, "routes", lambda: _all_routes(conn))]  # copies: callers trim items
    if path_filter:
        needle = path_filter.strip().lower()
        routes = [r for r in routes if needle in r["route"].lower()]
    if method:
        routes = [r for r in routes if r["method"].upper() == method.upper()]
    routes.sort(key=lambda r: (r["route"].lower(), HTTP_METHODS.index(r["method"]) if r["method"] in HTTP_METHODS
                               else 99, r["file"] or "", r["line"] or 0))
    counts: dict[str, int] = {}
    for r in routes:
        counts[r["method"]] = counts.get(r["method"], 0) + 1
    return Listing(routes, len(routes), _by_file(routes),
                   [{"method": m, "count": c} for m, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))])


def _may_read(template: str, key: str) -> bool:
    """Whether a computed read of this shape (`ConnectionStrings:*`, `*:Type`; `*` is what is computed) may
    read `key` (lowercase), or a value under the section `key` (`ConnectionStrings` itself)."""
    parts = template.lower().split("*")
    return bool(re.fullmatch(".+".join(map(re.escape, parts)), key)) or parts[0].startswith(key + ":")


def _covers(section: str, key: str) -> bool:
    """`GetSection("Orders")` uses every key under Orders; keys compare case-insensitively."""
    return key == section or key.startswith(section + ":")


# What a configuration usage says beside its place (the rest of its fact's detail is the index's own).
_USAGE_DETAILS = ("type", "property", "dynamic", "template", "through", "optional", "children_only", "default",
                  "alternatives")


def _config_facts(conn: sqlite3.Connection, kind: str, projects: list[tuple[int, str, str]]) -> list[dict[str, Any]]:
    names = {pid: name for pid, name, _ in projects}
    rows = conn.execute(f"SELECT {FACT_COLUMNS}, fa.project_id FROM {FACT_FROM} WHERE fa.kind = ? "
                        "ORDER BY f.path, fa.line, fa.col, fa.id", (kind,)).fetchall()
    handed = _aspire_arguments(conn) if kind == "ConfigDefinition" else {}
    out = []
    for row in rows:
        fact = _fact(row[:-1])
        fact["fact_key"] = row[5]  # a detail field named "key" (a keyed service's key) shadows it in `fact`
        # A compose service's environment is its Dockerfile's project's; an appsettings file, the project beside it
        # (a linked one's record names the linking project).
        fact["project"] = names.get(row[-1]) if row[-1] is not None else project_of_path(
            projects, fact["built_from"] if fact.get("source") == "docker_compose" else fact["file"])
        # An AppHost method configuring the project resource it is handed: once per project its callers hand it.
        aspire = [fact] if not fact.get("aspire_member") else _handed_definitions(fact, handed)
        for each in aspire:
            if each.get("aspire_project"):  # an Aspire AppHost's definition is for the project it runs
                each["apphost"] = each["project"]
                each["project"] = _aspire_project(str(each["aspire_project"]), names.values())
            out.append(each)
    return out


@dataclass(frozen=True)
class _Handed:
    """One call of an AppHost method: the project it hands the method, and the names of the other resources it
    hands (parameter -> resource name), which fill the holes of the keys the method defines."""

    project: str
    resources: tuple[tuple[str, str], ...]


def _aspire_arguments(conn: sqlite3.Connection) -> dict[tuple[str, str], list[_Handed]]:
    """(AppHost method id, parameter name) -> its calls' projects and resources (AspireProjectArgument facts)."""
    out: dict[tuple[str, str], list[_Handed]] = {}
    for fact in facts_of_kind(conn, "AspireProjectArgument"):
        calls = out.setdefault((str(fact["key"]), str(fact.get("parameter"))), [])
        if not fact.get("aspire_project"):
            continue
        pairs = [str(r).partition("=") for r in fact.get("resources") or []]
        call = _Handed(str(fact["aspire_project"]), tuple((name, resource) for name, sep, resource in pairs if sep))
        if call not in calls:
            calls.append(call)
    return out


def _handed_definitions(fact: dict[str, Any], handed: dict[tuple[str, str], list[_Handed]]) -> list[dict[str, Any]]:
    """A key an AppHost method defines for the project resource it is handed, once per call handing one:
    `{ollama}:Type` (eShopSupport's own WithReference) is `chatcompletion:Type` where the call hands the resource
    named chatcompletion; a call that hands no such resource names no key."""
    out: list[dict[str, Any]] = []
    for call in handed.get((str(fact["aspire_member"]), str(fact.get("aspire_parameter"))), []):
        key, names = str(fact["key"]), dict(call.resources)
        for hole in fact.get("aspire_resources") or []:
            key = key.replace("{" + str(hole) + "}", names.get(str(hole), "{" + str(hole) + "}"))
        if "{" in key and fact.get("aspire_resources"):
            continue
        each = {**fact, "aspire_project": call.project, "key": key, "fact_key": key}
        if each not in out:
            out.append(each)
    return out


def _aspire_project(generated: str, names: Iterable[str]) -> str:
    """The solution's project an AppHost's `Projects.Basket_API` stands for: Aspire names the generated
    class after the project with every character other than a letter, digit or `_` made `_`."""
    return next((n for n in names if re.sub(r"[^A-Za-z0-9_]", "_", n) == generated), generated)


def _unstartable_libraries(conn: sqlite3.Connection) -> set[str | None]:
    """The class libraries nothing starts by themselves: those another project of the solution loads, and not a
    function app (a library the Functions host runs). A library no project references keeps its launch profile: it
    is how its host runs it locally (an AWS Lambda function project, a plugin a tool loads)."""
    functions = {r[0] for r in conn.execute("SELECT DISTINCT project_id FROM facts WHERE kind = 'FunctionTrigger'")}
    loaded = {str(r[0]) for r in conn.execute("SELECT DISTINCT key FROM facts WHERE kind = 'ProjectReference'")}
    return {str(name) for pid, name in conn.execute("SELECT id, name FROM projects WHERE output_kind = 'Library'")
            if pid not in functions and str(name) in loaded}


def _hosts_loading(conn: sqlite3.Connection, hosts: set[str | None],
                   apphosts: set[str | None]) -> dict[str | None, set[str | None]]:
    """Per project: the host projects that reference it, directly or through other projects. An Aspire AppHost
    references the projects it runs to name them (`Projects.App`), never to load them: not a loader."""
    edges: dict[str, set[str]] = {}
    names = {pid: name for pid, name, _ in project_folders(conn)}
    for project_id, key in conn.execute("SELECT project_id, key FROM facts WHERE kind = 'ProjectReference'"):
        if project_id in names and names[project_id] not in apphosts:
            edges.setdefault(str(key), set()).add(names[project_id])  # referenced -> referencing
    out: dict[str | None, set[str | None]] = {}
    for project in edges:
        seen, todo = set(), [project]
        while todo:
            for referrer in edges.get(todo.pop(), set()):
                if referrer not in seen:
                    seen.add(referrer)
                    todo.append(referrer)
        out[project] = {h for h in seen if h in hosts}
    return out


def config_keys(conn: sqlite3.Connection, key_filter: str | None, project: str | None = None,
                status: str | None = None, markup_reads: Sequence[ConfigRead] = ()) -> Listing:
    """Keys read in code merged with keys defined in appsettings*.json, per project: a host project
    (one with its own appsettings files) is checked against its own files and those of the hosts it
    references (a test project hosting the app); a library (none) against those of the hosts that
    reference it, directly or not (every host's when none does). `markup_reads`: keys Razor views read
    (query/markup.config_reads), each the read of the project holding the view."""
    projects = project_folders(conn)
    usages = _config_facts(conn, "Config", projects) + [
        {"key": r.key, "pattern": "markup", "symbol_id": None, "file": r.file, "line": r.line, "confidence": "medium",
         "project": project_of_path(projects, r.file), "through": r.pattern} for r in markup_reads]
    discovery = conn.execute("SELECT 1 FROM facts WHERE kind = 'DiRegistration' AND key = 'AddServiceDiscovery' "
                             "LIMIT 1").fetchone() is not None
    # A compose service built from a folder no project of the solution is in (a log shipper) is not its config.
    definitions = _unprefixed(conn, [d for d in _config_facts(conn, "ConfigDefinition", projects) if d["key"]
                                     and not (d.get("source") == "docker_compose" and d["project"] is None)])
    # A class library is started by nothing (`dotnet run` refuses it): a launch profile left in one (RockPaperOrleans'
    # Infrastructure, a Web SDK project with `<OutputType>Library</OutputType>`, loaded by eight apps that all have the
    # connection strings it reads) makes it no host, so its reads are checked against the apps loading it.
    unstartable = _unstartable_libraries(conn)
    hosts = {d["project"] for d in definitions
             if not (d.get("source") == "launch_settings" and d["project"] in unstartable)}
    # A library's keys are checked against the hosts that reference it (transitively, ProjectReference
    # facts); a library no host references, against every host's.
    apphosts = {d.get("apphost") for d in definitions if d.get("apphost")}
    loaders = _hosts_loading(conn, hosts, apphosts)
    # A host that references another host runs it in process (a test project's WebApplicationFactory<Program>
    # with its own appsettings.test.json): the referenced host's appsettings count as its own too.
    inherited: dict[str | None, set[str]] = {}
    for d in definitions:
        for referrer in loaders.get(d["project"], set()):
            inherited.setdefault(referrer, set()).add(d["key"].lower())
    if project:
        wanted = project.strip().lower()
        asked = {p for p in hosts if (p or "").lower() == wanted}
        # One project: its own uses, and those of the libraries it loads (checked against it alone).
        usages = [u for u in usages
                  if (u["project"] or "").lower() == wanted or asked & loaders.get(u["project"], set())]
        definitions = [d for d in definitions if (d["project"] or "").lower() == wanted]
        hosts = {d["project"] for d in definitions}
        loaders = {lib: hs & hosts for lib, hs in loaders.items()}
    keys: dict[str, dict[str, Any]] = {}
    for use in usages:
        entry = keys.setdefault(use["key"].lower(), {"key": use["key"], "usages": [], "defined_in": []})
        entry["usages"].append({"pattern": use.get("pattern"), "symbol_id": use["symbol_id"], "file": use["file"],
                                "line": use["line"], "confidence": use["confidence"], "project": use["project"],
                                **{k: use[k] for k in _USAGE_DETAILS if use.get(k) is not None}})
    for definition in definitions:
        entry = keys.setdefault(definition["key"].lower(), {"key": definition["key"], "usages": [], "defined_in": []})
        entry["defined_in"].append({"file": definition["file"], "line": definition["line"],
                                    "project": definition["project"],
                                    **({"environment": definition["environment"]}
                                       if definition.get("environment") else {}),
                                    **_definition_source(definition)})
    # Per project: the keys its own appsettings define, and the keys its code reads.
    defined_by: dict[str | None, set[str]] = {}
    for d in definitions:
        defined_by.setdefault(d["project"], set()).add(d["key"].lower())
    for host, keys_of_referenced in inherited.items():
        if host in hosts:
            defined_by.setdefault(host, set()).update(keys_of_referenced)
    every_definition = {d["key"].lower() for d in definitions}
    used_by: dict[str | None, set[str]] = {}
    # A section read only for its children (`var s = config.GetSection("Blogifier"); s.GetValue<string>("DbProvider")`)
    # uses itself, not every key under it: its children's reads are recorded one by one.
    read_alone_by: dict[str | None, set[str]] = {}
    for u in usages:
        if not u.get("dynamic"):
            (read_alone_by if u.get("children_only") else used_by).setdefault(u["project"], set()).add(u["key"].lower())
            # A Functions binding's `Connection = "Bus"` also reads ConnectionStrings:Bus and AzureWebJobsBus.
            used_by.setdefault(u["project"], set()).update(a.lower() for a in u.get("alternatives") or [])

    # Reads whose key is computed (`GetConnectionString(serviceName)`) but whose shape is known (`template`).
    templates: dict[str | None, list[dict[str, Any]]] = {}
    for u in usages:
        if u.get("dynamic") and u.get("template"):
            templates.setdefault(u["project"], []).append(u)

    def reaches(project: str | None, host: str | None) -> bool:
        """Whether code of `project` runs in `host`: its own, or a library the host loads (every host's when
        no host loads it)."""
        return project == host or (project not in hosts and (not loaders.get(project) or host in loaders[project]))

    def reads_of(host: str | None) -> set[str]:
        return {k for p, ks in used_by.items() if reaches(p, host) for k in ks}

    def configures(project: str, section: str) -> bool:
        """Whether a project defines anything under `section` (a read guarded by `section.Exists()` runs only then)."""
        return any(_covers(section, d) for d in defined_by.get(project or None, set()))  # missing_in says None as ""

    def dynamic_reader(host: str | None, lower: str) -> dict[str, Any] | None:
        return next((u for p, uses in templates.items() if reaches(p, host)
                     for u in uses if _may_read(str(u["template"]), lower)), None)

    def missing_in(use: dict[str, Any], lower: str) -> list[str]:
        """The projects a use's key is undefined for: its own (a host), or the hosts loading its library."""
        if use["project"] in apphosts and lower.startswith("apphost:"):
            return []  # Aspire's DistributedApplicationBuilder sets AppHost:OtlpApiKey, AppHost:BrowserToken...
        if use["project"] in hosts:
            pools = {use["project"]: defined_by.get(use["project"], set())}
        elif loaders.get(use["project"]):
            loading = loaders[use["project"]]
            lacking = {h for h in loading if not any(_covers(lower, d) for d in defined_by.get(h, set()))}
            # Walk the callers only for a key some host lacks (the walk is the dear part of this listing).
            running = loading & _hosts_calling(conn, use.get("symbol_id"), hosts, loaders, projects) \
                if lacking else set()
            pools = {h: defined_by.get(h, set()) for h in (running or loading)}
        else:
            pools = {use["project"]: every_definition}
        names = [lower, *(a.lower() for a in use.get("alternatives") or [])]  # any of them set is the setting set
        return [str(p or "") for p, pool in pools.items() if not any(_covers(n, d) for n in names for d in pool)]

    for lower, entry in keys.items():
        if entry["usages"]:
            if all(u.get("dynamic") for u in entry["usages"]):
                entry["status"] = "dynamic"
                continue
            # A guarded read (`optional`) lacks the key only where its section is configured.
            plain = [u for u in entry["usages"] if not u.get("dynamic")]
            # `Environment.GetEnvironmentVariable("HOME")`: the operating system or the CI service sets it.
            from_environment = any(u.get("pattern") == "environment_variable" for u in plain)
            system = system_variable(entry["key"]) if from_environment else None
            if system:
                plain = [u for u in plain if u.get("pattern") != "environment_variable"]
            undefined = sorted({p for u in plain for p in missing_in(u, lower)
                                if not u.get("optional") or configures(p, str(u["optional"]).lower())})
            guarded = {str(u["optional"]).lower() for u in plain if u.get("optional")}
            if not undefined and guarded and not any(configures(str(p or ""), section)
                                                     for section in guarded for p in defined_by):
                undefined = sorted({p for u in plain for p in missing_in(u, lower)})  # guarded, set nowhere
            if not undefined:
                entry["status"] = "used"
                if not entry["defined_in"] and lower.startswith("apphost:"):
                    entry["set_by"] = "Aspire's AppHost (DistributedApplicationBuilder sets AppHost:*)"
                elif not entry["defined_in"] and system:
                    entry["set_by"] = system
            elif all(u.get("pattern") == "bound_property" for u in entry["usages"]):
                entry["status"] = "bound_unset"  # an options property appsettings leave at its default
                entry["undefined_in"] = undefined  # where: one host may set it and another not
            else:
                entry["status"] = "used_but_undefined"
                entry["undefined_in"] = undefined
                lacking = [u for u in plain if set(missing_in(u, lower)) & set(undefined)]
                if all(u.get("default") for u in lacking):
                    entry["defaulted"] = True  # every read lacking it has a default of its own (`?? "..."`)
                if all(u.get("optional") for u in lacking):
                    entry["optional"] = True  # every read lacking it is guarded: the code goes on without it
        else:
            readers = [reads_of(d["project"]) for d in entry["defined_in"]]
            is_used = any(_covers(u, lower) for pool in readers for u in pool) or any(
                lower in keys_read for p, keys_read in read_alone_by.items()
                if any(reaches(p, d["project"]) for d in entry["defined_in"]))
            reader = None if is_used else framework_reader(lower, discovery)
            dynamic = None if is_used or reader else next(
                (found for d in entry["defined_in"] if (found := dynamic_reader(d["project"], lower))), None)
            entry["status"] = ("used" if is_used else "read_by_framework" if reader else
                               "read_dynamically" if dynamic else "defined_but_unused")
            if reader:
                entry["read_by"] = reader
            elif dynamic:  # the computed read that may reach it (the app's own code: not unused)
                entry["read_by"] = f"{dynamic['pattern']} {dynamic['key']} at {dynamic['file']}:{dynamic['line']}"
    # What Aspire sets in every project (OTEL_*), and what a launch profile sets for the host (DOTNET_LAUNCH_PROFILE,
    # ASPNETCORE_ENVIRONMENT), counts for a key read, but is not the solution's own config.
    def is_default(d: dict[str, Any]) -> bool:
        return (d.get("pattern") in ("aspire_default", "launch_default")
                or (d.get("source") == "launch_settings" and framework_reader(d["key"]) is not None))

    own = {d["key"].lower() for d in definitions if not is_default(d)}
    # A default is shown where it is read: DOTNET_LAUNCH_PROFILE read by the frontend, in the frontend's profiles only.
    defaults = {(d["key"].lower(), d["file"], d["line"]) for d in definitions if is_default(d)}
    for lower, entry in keys.items():
        reading = _reading_projects(entry["usages"], hosts, loaders)
        entry["defined_in"] = [d for d in entry["defined_in"] if (lower, d["file"], d["line"]) not in defaults
                               or reading is None or d["project"] in reading]
    items = sorted((e for lower, e in keys.items() if e["usages"] or lower in own), key=lambda e: e["key"].lower())
    if key_filter:
        needle = key_filter.strip().lower()
        # No key by that name: the computed reads that may read it (realworld's
        # `GetSection($"Authentication:Schemes:{providerName}")` for `Authentication:Schemes:GitHub` was "0 keys").
        items = [e for e in items if needle in e["key"].lower()] or [e for e in items if any(
            u.get("template") and _may_read(str(u["template"]), needle) for u in e["usages"])]
    for entry in items:
        first = (entry["usages"] or entry["defined_in"])[0]
        entry["file"], entry["line"] = first["file"], first["line"]
        entry["projects"] = sorted({x["project"] for x in entry["usages"] + entry["defined_in"] if x["project"]})
        # Said once per key, not per place: the project when the key has one, the confidence when it is high.
        for place in entry["usages"] + entry["defined_in"]:
            if len(entry["projects"]) == 1:
                place.pop("project", None)
            if place.get("confidence") == "high":
                del place["confidence"]
    counts: dict[str, int] = {}
    for e in items:
        counts[e["status"]] = counts.get(e["status"], 0) + 1
    if status:
        items = [e for e in items if e["status"] == status]
    return Listing(items, len(items), _by_file(items),
                   [{"status": s, "count": c} for s, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))])


def _unprefixed(conn: sqlite3.Connection, definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An environment variable (docker-compose, a launch profile) of a project whose code adds the environment with a
    prefix, `AddEnvironmentVariables("Meetings_")`, sets the key after the prefix, as the provider strips it
    (modular-monolith's compose sets Meetings_MeetingsConnectionString, its API reads MeetingsConnectionString);
    the place says the `prefix`."""
    prefixes: dict[str, list[str]] = {}
    for definition in definitions:
        project = definition["project"]
        if definition.get("source") not in ("docker_compose", "launch_settings") or not project:
            continue
        if project not in prefixes:  # the provider matches the prefix with `__` read as `:`, ignoring case
            # Longest first: `App_Db_` before `App_`.
            found = [str(f["path"]).replace("__", ":") for f in config_sources(conn, [project])
                     if f["key"] == "AddEnvironmentVariables" and f.get("path")]
            prefixes[project] = sorted(found, key=len, reverse=True)
        key = str(definition["key"])
        if prefix := next((p for p in prefixes[project] if len(key) > len(p) and key.lower().startswith(p.lower())),
                          None):
            definition["key"], definition["prefix"] = key[len(prefix):], key[:len(prefix)]
    return definitions


def _definition_source(definition: dict[str, Any]) -> dict[str, Any]:
    """Where a definition outside appsettings comes from, as a place shows it (nothing for an appsettings file but a
    linked one's `link`)."""
    if definition.get("aspire_project"):
        return {"source": "aspire"}
    if definition.get("pattern") == "in_memory":
        return {"source": "in_memory"}
    prefix = {"prefix": definition["prefix"]} if definition.get("prefix") else {}
    if definition.get("source") == "docker_compose":
        return {"source": "docker_compose", "service": definition.get("service"), **prefix}
    if definition.get("source") == "launch_settings":
        return {"source": "launch_settings", "profile": definition.get("profile"), **prefix}
    if definition.get("source") == "local_settings":
        return {"source": "local_settings"}
    # Another project's appsettings file its project file links in: the name the project gives it.
    return {"link": definition["link"]} if definition.get("link") else {}


def _reading_projects(usages: list[dict[str, Any]], hosts: set[str | None],
                      loaders: dict[str | None, set[str | None]]) -> set[str | None] | None:
    """The projects a key's reads run in: each read's own and the hosts loading its library; None (every project)
    when a library no host loads reads it."""
    out: set[str | None] = set()
    for use in usages:
        if use["project"] not in hosts and not loaders.get(use["project"]):
            return None
        out |= {use["project"], *loaders.get(use["project"], set())}
    return out


# Sections the host or a library reads by convention, with no key in the solution's code: unused they are not.
FRAMEWORK_SECTIONS = {
    "logging": "the host's logging (WebApplication.CreateBuilder, Host.CreateDefaultBuilder)",
    "allowedhosts": "host filtering (WebApplication.CreateBuilder, WebHost.CreateDefaultBuilder)",
    "kestrel": "Kestrel's endpoint configuration",
    "urls": "the web host's listening addresses",
    "https_port": "HTTPS redirection",
    "detailederrors": "the web host",
    "serilog": "Serilog.Settings.Configuration (ReadFrom.Configuration)",
    "applicationinsights": "Application Insights (AddApplicationInsightsTelemetry)",
    "orleans": "Orleans (UseOrleans reads the section an Aspire AppHost sets)",
}


# Environment variables the operating system, a shell, a container platform or a CI service sets: a direct read of
# one is not a key the solution lacks (Radarr's and BTCPay's reads of PATH, HOME, CI read used_but_undefined).
_SYSTEM_VARIABLES = frozenset({
    "path", "pathext", "home", "homedrive", "homepath", "user", "username", "userdomain", "userprofile", "logname",
    "shell", "pwd", "temp", "tmp", "tmpdir", "lang", "lc_all", "term", "tz", "display", "hostname", "computername",
    "os", "windir", "systemroot", "systemdrive", "comspec", "public", "allusersprofile", "appdata", "localappdata",
    "programdata", "programfiles", "programfiles(x86)", "commonprogramfiles", "processor_architecture",
    "processor_identifier", "number_of_processors", "xdg_config_home", "xdg_data_home", "xdg_cache_home",
    "xdg_runtime_dir", "kubernetes_service_host", "kubernetes_service_port"})
# The variables CI services set on every run, by exact name: a prefix would take an app's own `GITHUB_CLIENT_SECRET`
# (an OAuth login's, which nothing sets for it) for the CI service's.
_CI_VARIABLES = frozenset({
    "ci", "tf_build", "github_actions", "github_sha", "github_ref", "github_ref_name", "github_repository",
    "github_run_id", "github_run_number", "github_workspace", "github_event_name", "github_actor", "github_job",
    "github_workflow", "github_server_url", "github_head_ref", "github_base_ref", "gitlab_ci", "ci_commit_sha",
    "ci_commit_ref_name", "ci_pipeline_id", "ci_project_dir", "ci_job_id", "appveyor", "appveyor_build_version",
    "travis", "jenkins_url", "build_number", "teamcity_version", "buildkite", "build_buildid", "build_buildnumber",
    "build_sourcesdirectory", "build_sourcebranch", "build_sourceversion", "system_teamfoundationcollectionuri"})


def system_variable(key: str) -> str | None:
    """Who sets an environment variable read by name, when it is the operating system's or a CI service's."""
    lower = key.lower()
    if lower in _SYSTEM_VARIABLES:
        return f"the operating system ({key})"
    if lower in _CI_VARIABLES:
        return f"the CI service ({key})"
    return None


def framework_reader(key: str, service_discovery: bool = False) -> str | None:
    """What reads a configuration key by convention (its first section), if anything does. `service_discovery`: the
    solution registers Microsoft.Extensions.ServiceDiscovery, which reads `Services:{service}:{endpoint}`
    (aspire-samples' WPF and WinForms clients define `Services:apiservice:0` for production)."""
    if service_discovery and key.lower().split(":", 1)[0] == "services":
        return "service discovery (AddServiceDiscovery: Services:{service}:{endpoint})"
    if key.lower().startswith(("aspnetcore_", "dotnet_")):
        return "the host (ASPNETCORE_* and DOTNET_* environment variables)"
    if key.lower().startswith(("azurewebjobs", "functions_")):  # local.settings.json's AzureWebJobsStorage...
        return "the Azure Functions host (AzureWebJobs* and FUNCTIONS_* settings)"
    if key.lower().startswith("aspire_"):  # an AppHost's launch profile: its dashboard's and resource service's URLs
        return "Aspire's AppHost (ASPIRE_* environment variables)"
    return FRAMEWORK_SECTIONS.get(key.split(":", 1)[0].lower())


_SQLITE_INTERNAL = re.compile(r"^(sqlite_|pragma_)", re.I)


# The folders migrations live in: EF Core's `Migrations`, and FluentMigrator's `Migration` too (Radarr's and Sonarr's
# `Datastore/Migration/`, whose raw SQL names tables renamed long ago).
MIGRATION_FOLDERS = frozenset({"Migrations", "Migration"})


def in_migration_folder(path: str | None) -> bool:
    return bool(MIGRATION_FOLDERS.intersection((path or "").replace("\\", "/").split("/")[:-1]))


def is_migration_file(path: str | None) -> bool:
    """EF Core migrations and model snapshots repeat every mapping: grouped, not listed one by one."""
    if not path:
        return False
    return in_migration_folder(path) or path.replace("\\", "/").endswith(("ModelSnapshot.cs", ".Designer.cs"))


def _short(type_id: str) -> str:
    return type_id.split(":", 1)[-1].rsplit(".", 1)[-1]


MIGRATION_OPERATIONS = ("RenameTable", "DropTable")


def is_snapshot_file(path: str | None) -> bool:
    """An EF Core model snapshot: the current schema of its context's migrations."""
    return bool(path) and str(path).replace("\\", "/").endswith("ModelSnapshot.cs")


def _from_migrations(fact: Mapping[str, Any]) -> bool:
    """A mapping a migration, its designer or a model snapshot repeats, or a migration's RenameTable/DropTable."""
    return fact.get("source") in MIGRATION_OPERATIONS or is_migration_file(fact.get("file"))


def _mapping_facts(facts: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Entity id -> the facts mapping it to a table: [Table] or ToTable() outside migrations, else a model snapshot's
    `b.ToTable(...)`, the current schema (Kavita's AppUser is AspNetUsers: Identity's OnModelCreating, which the index
    does not read, names it, and its snapshot says so). Several when several contexts map one entity."""
    facts = list(facts)
    out: dict[str, list[Mapping[str, Any]]] = {}
    for f in facts:
        if f.get("source") in ("Table", "ToTable") and f.get("entity") and not is_migration_file(f["file"]):
            out.setdefault(f["entity"], []).append(f)
    for f in facts:
        if f.get("source") == "ToTable" and f.get("entity") and is_snapshot_file(f["file"]) and f["entity"] not in out:
            out.setdefault(f["entity"], []).append(f)
    return out


def _mappings(facts: Iterable[Mapping[str, Any]]) -> dict[str, tuple[str, str | None]]:
    """Entity id -> (table, schema) the model maps it to: the first of its mapping facts."""
    return {entity: (found[0]["key"], found[0].get("schema")) for entity, found in _mapping_facts(facts).items()}


def table_mappings(conn: sqlite3.Connection) -> dict[str, tuple[str, str | None]]:
    return dict(memo(conn, "table_mappings", lambda: _mappings(facts_of_kind(conn, "DbTable"))))


def table_renames(conn: sqlite3.Connection) -> dict[str, str]:
    """Entity id -> the table [Table], ToTable() or else the model snapshot maps it to."""
    return {entity: table for entity, (table, _) in table_mappings(conn).items()}


def entity_tables(conn: sqlite3.Connection) -> dict[str, str]:
    """Entity id -> its table: [Table]/ToTable() or the snapshot when mapped, else its DbSet's conventional name."""
    def compute() -> dict[str, str]:
        out = table_renames(conn)
        for f in facts_of_kind(conn, "DbTable"):
            if f.get("source") == "DbSet" and f.get("entity") and f.get("inherited") != "package" \
                    and not is_migration_file(f["file"]):
                out.setdefault(f["entity"], f["key"])
        return out
    return dict(memo(conn, "entity_tables", compute))


def is_procedure(fact: Mapping[str, Any]) -> bool:
    """A DbTable fact that names a stored procedure a command runs, not a table."""
    return fact.get("object") == "procedure"


def db_procedures(conn: sqlite3.Connection, name_filter: str | None) -> list[dict[str, Any]]:
    """Stored procedures the code runs (Dapper, ADO.NET, EF Core's EXEC), by name: schema, the calling members,
    the first call's place."""
    procedures: dict[str, dict[str, Any]] = {}
    for fact in facts_of_kind(conn, "DbTable"):
        if not is_procedure(fact):
            continue
        entry = procedures.setdefault(fact["key"].lower(), {
            "procedure": fact["key"], "schema": fact.get("schema"), "symbols": [], "calls": 0,
            "file": fact["file"], "line": fact["line"], "confidence": fact["confidence"]})
        entry["calls"] += 1
        if fact["symbol_id"] and fact["symbol_id"] not in entry["symbols"]:
            entry["symbols"].append(fact["symbol_id"])
        if fact.get("schema") and not entry["schema"]:
            entry["schema"] = fact["schema"]
    items = sorted(procedures.values(), key=lambda p: p["procedure"].lower())
    if name_filter:
        needle = name_filter.strip().lower()
        items = [p for p in items if needle in p["procedure"].lower()]
    return items


@dataclass
class TableListing(Listing):
    # Tables only migrations name, which the model snapshot covering them does not have: renamed or dropped.
    former: list[dict[str, Any]]
    # The folders the listed tables' migrations are in: {folder, files}. A row says only how many migration files
    # name its table (the folder, said once here, is where to read them).
    migration_folders: list[dict[str, Any]]
    # Some former table is one a model snapshot does not have (else each was renamed or dropped, FluentMigrator's).
    by_snapshot: bool = False


def _mapped(conn: sqlite3.Connection, facts: list[dict[str, Any]],
            chooser: _ContextMappings | None = None) -> list[dict[str, Any]]:
    """A DbSet whose entity the model or the snapshot maps is a source of that table (its name in `dbset`); a DbSet
    inherited from a package's context (Identity's `Users`) is a table only when something maps its entity (the
    package's model names it). An entity mapped to several tables is its own context's (_ContextMappings)."""
    mapped = _mapping_facts(facts)
    out = []
    chooser = chooser or _ContextMappings(conn)
    for fact in facts:
        if fact.get("source") == "DbSet" and fact.get("entity") in mapped:
            found = mapped[fact["entity"]]
            if len({(m["key"].lower(), str(m.get("schema") or "").lower()) for m in found}) > 1:
                found = [chooser.choose(fact, found)]
            # A mapping naming no schema is in the DbSet's context's default one (_in_default_schemas).
            fact = {**fact, "key": found[0]["key"], "schema": found[0].get("schema") or fact.get("schema"),
                    "dbset": fact["key"]}
        elif fact.get("inherited") == "package":
            continue
        out.append(fact)
    return out


class _ContextMappings:
    """Which of an entity's disagreeing mappings a DbSet's context applies (modular-monolith's InternalCommand, mapped
    by each module's IEntityTypeConfiguration to meetings.InternalCommands, registrations.InternalCommands...: every
    module's DbSet was listed under the first schema found). First a configuration the context itself holds or
    instantiates (`ApplyConfiguration(new X())`), then one in a project its ApplyConfigurationsFromAssembly names
    (`typeof(X).Assembly`; its own for `GetType().Assembly`), then one in the context's project, else the first."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._projects = project_folders(conn)
        self._models: dict[str, tuple[set[str], set[str | None]]] = {}
        self._containers: dict[str, str | None] = {}

    def _container(self, symbol_id: str | None) -> str | None:
        if not symbol_id:
            return None
        if symbol_id not in self._containers:
            row = self._conn.execute("SELECT container_id FROM symbols WHERE symbol_id = ? LIMIT 1",
                                     (symbol_id,)).fetchone()
            self._containers[symbol_id] = row[0] if row else None
        return self._containers[symbol_id]

    def _model(self, context: str, project: str | None) -> tuple[set[str], set[str | None]]:
        """(the types whose configurations the context applies, the projects whose assemblies it applies)."""
        if context in self._models:
            return self._models[context]
        applied: set[str] = {context}
        assemblies: set[str | None] = set()
        rows = self._conn.execute(
            "SELECT DISTINCT r.kind, r.from_key, r.line, t.symbol_id FROM symbols s JOIN ids f ON f.symbol_id ="
            " s.symbol_id JOIN refs r ON r.from_key = f.key JOIN ids t ON t.key = r.target_key"
            " WHERE s.container_id = ? AND r.kind IN ('Instantiate', 'Call', 'TypeRef')", (context,)).fetchall()
        for kind, _, _, target in rows:
            if kind == "Instantiate" and str(target).startswith("T:"):
                applied.add(str(target))
        for kind, from_key, line, target in rows:
            if kind != "Call" or ".ApplyConfigurationsFromAssembly(" not in str(target):
                continue
            # `typeof(X).Assembly`: X is the only type the call's line names (GetType().Assembly names none).
            named = [str(t) for k, f, n, t in rows if k == "TypeRef" and f == from_key and n == line]
            owners = {str(r[0]) for r in in_chunks(
                self._conn, "SELECT DISTINCT p.name FROM symbols s JOIN projects p ON p.id = s.project_id"
                            " WHERE s.symbol_id IN ({marks})", named)}
            assemblies |= owners or {project}
        self._models[context] = (applied, assemblies)
        return applied, assemblies

    def context_of(self, dbset: Mapping[str, Any]) -> str | None:
        """The context declaring a DbSet (or inheriting it: `context`)."""
        return dbset.get("context") or self._container(dbset.get("symbol_id"))

    def applies(self, context: str, context_file: str | None, mapping: Mapping[str, Any]) -> bool:
        """Whether a context's model applies a ToTable: in its own OnModelCreating, in a configuration it instantiates,
        or in a project whose assembly its ApplyConfigurationsFromAssembly names."""
        applied, assemblies = self._model(context, project_of_path(self._projects, context_file))
        return self._container(mapping.get("symbol_id")) in applied \
            or project_of_path(self._projects, mapping.get("file")) in assemblies

    def choose(self, dbset: Mapping[str, Any], found: list[Mapping[str, Any]]) -> Mapping[str, Any]:
        context = self.context_of(dbset)
        project = project_of_path(self._projects, dbset.get("file"))
        if not context:
            return found[0]
        applied, assemblies = self._model(str(context), project)

        def rank(mapping: Mapping[str, Any]) -> int:
            where = project_of_path(self._projects, mapping.get("file"))
            return 0 if self._container(mapping.get("symbol_id")) in applied else 1 if where in assemblies \
                else 2 if where == project else 3
        return min(found, key=rank)


def _in_default_schemas(conn: sqlite3.Connection, facts: list[dict[str, Any]],
                        chooser: _ContextMappings) -> list[dict[str, Any]]:
    """The model's mappings naming no schema (a DbSet, `ToTable("Subscriptions")`, `[Table]`) in the default schema of
    the context whose model holds them (`HasDefaultSchema("billing")` in its OnModelCreating, DbDefaultSchema facts):
    fullstackhero's billing.Subscriptions was two rows, the code's without a schema and its migrations' in billing. A
    DbSet is its context's; a ToTable, the contexts applying it (_ContextMappings.applies), else those with a DbSet of
    its entity, as a [Table] is; when those contexts disagree (one has no default schema) it keeps none."""
    set_by = [f for f in facts_of_kind(conn, "DbDefaultSchema") if f["symbol_id"]]
    if not set_by:
        return facts
    defaults = {str(f["symbol_id"]): str(f["key"]) for f in set_by}
    # Each context's file (its DbSets and its HasDefaultSchema are in it), and the contexts of each entity's DbSets.
    files: dict[str, str | None] = {str(f["symbol_id"]): f["file"] for f in set_by}
    with_dbset: dict[str, set[str]] = {}
    for fact in facts:
        if fact.get("source") == "DbSet" and (declaring := chooser.context_of(fact)):
            files.setdefault(declaring, fact["file"])
            if fact.get("entity"):
                with_dbset.setdefault(str(fact["entity"]), set()).add(declaring)

    def contexts_of(fact: Mapping[str, Any]) -> set[str]:
        if fact.get("source") == "DbSet":
            return {c} if (c := chooser.context_of(fact)) else set()
        if fact.get("source") == "ToTable":
            applying = {c for c, file in files.items() if chooser.applies(c, file, fact)}
            if applying:
                return applying
        return with_dbset.get(str(fact.get("entity")), set())

    out = []
    for fact in facts:
        if fact.get("source") in ("DbSet", "Table", "ToTable") and not fact.get("schema") \
                and not _from_migrations(fact):
            found = {defaults.get(c, "") for c in contexts_of(fact)}
            if len(found) == 1 and (schema := found.pop()):
                fact = {**fact, "schema": schema}
        out.append(fact)
    return out


def _covered(snapshot_dirs: set[str], path: str) -> bool:
    folder = path.replace("\\", "/").rpartition("/")[0]
    return any(not d or folder == d or folder.startswith(d + "/") for d in snapshot_dirs)


def _former(entry: dict[str, Any], migrations: list[dict[str, Any]], snapshot_dirs: set[str],
            renamed_into: list[tuple[str, int]]) -> bool:
    """Named only by migrations (designers' ToTable, RenameTable, DropTable) that a model snapshot covers (its folder
    or one above), and not by that snapshot: not a table of the current schema. Without a snapshot (FluentMigrator),
    one whose last mention in the migrations, in migration order, renames or drops it (Radarr's Blacklist), unless a
    later rename makes it again (`renamed_into`: SQLite's rebuild, drop X then rename X_new to X)."""
    if entry["sources"] or not migrations or any(is_snapshot_file(m["file"]) for m in migrations):
        return False
    return all(_covered(snapshot_dirs, m["file"]) for m in migrations) or _gone(migrations, renamed_into)


def _gone(migrations: list[dict[str, Any]], renamed_into: list[tuple[str, int]]) -> bool:
    """The last migration mentioning the table renames or drops it, and no later one renames another table to it."""
    last = max(migrations, key=lambda m: (_migration_order(m["file"]), m["line"]))
    if last.get("source") not in MIGRATION_OPERATIONS:
        return False
    after = (_migration_order(last["file"]), last["line"])
    return not any((_migration_order(file), line) > after for file, line in renamed_into)


def _migration_order(path: str) -> tuple[Any, ...]:
    """A migration file's place in order: its numbers compared as numbers (`9_x.cs` before `10_y.cs`)."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path))


def db_tables(conn: sqlite3.Connection, table_filter: str | None) -> TableListing:
    """The tables of the current schema. When a model snapshot exists it is the truth: a table only migrations name
    that it does not have was renamed or dropped (Kavita's Users, renamed AspNetUsers in 2020, and six dropped tables
    were listed as current): it goes to `former`, with what happened to it."""
    tables: dict[str, dict[str, Any]] = {}
    chooser = _ContextMappings(conn)
    facts = _mapped(conn, _in_default_schemas(conn, [f for f in facts_of_kind(conn, "DbTable")
                                                     if not _SQLITE_INTERNAL.match(f["key"]) and not is_procedure(f)],
                                              chooser), chooser)
    schemas = _table_schemas(facts)
    for fact in facts:
        apart = _schema_of(fact, schemas)
        entry = tables.setdefault(f"{apart.lower()}.{fact['key'].lower()}" if apart else fact["key"].lower(), {
            "table": fact["key"], "schema": apart, "entities": [], "dbsets": [], "sources": [], "symbols": [],
            "file": fact["file"], "line": fact["line"], "confidence": fact["confidence"]})
        if fact.get("schema") and not entry["schema"]:
            entry["schema"] = fact["schema"]
        if fact.get("entity") and fact["entity"] not in entry["entities"]:
            entry["entities"].append(fact["entity"])
        if fact.get("source") == "DbSet" and (name := fact.get("dbset") or fact["key"]) not in entry["dbsets"]:
            entry["dbsets"].append(name)
        if _from_migrations(fact):
            entry.setdefault("_migrations", []).append(fact)
            continue
        entry["sources"].append({"source": fact.get("source"), "file": fact["file"], "line": fact["line"],
                                 **({"inherited": fact["inherited"]} if fact.get("inherited") else {}),
                                 **({"through": fact["through"]} if fact.get("through") else {})})
        if fact["symbol_id"] and fact["symbol_id"] not in entry["symbols"]:
            entry["symbols"].append(fact["symbol_id"])
        if fact["confidence"] == "high":
            entry["confidence"] = "high"
    snapshot_dirs = {f["file"].replace("\\", "/").rpartition("/")[0] for f in facts
                     if f.get("source") == "ToTable" and is_snapshot_file(f["file"])}
    former: list[dict[str, Any]] = []
    snapshot_judged: set[int] = set()  # id() of the former entries a model snapshot covers
    renamed_into: dict[str, list[tuple[str, int]]] = {}  # table -> where a migration renames another table to it
    for fact in facts:
        if fact.get("source") == "RenameTable" and fact.get("renamed_to"):
            renamed_into.setdefault(str(fact["renamed_to"]).lower(), []).append((fact["file"], fact["line"]))
    for key, entry in list(tables.items()):
        migrations = entry.pop("_migrations", [])
        # Point at the model's mapping, else at the code's own first source (an inherited DbSet's is the context's
        # name), not at a migration that sorts first.
        place = next((s for s in entry["sources"] if s["source"] in ("Table", "ToTable")), None) \
            or next((s for s in entry["sources"] if not s.get("inherited")), None) \
            or next(iter(entry["sources"]), None)
        if place:
            entry["file"], entry["line"] = place["file"], place["line"]
        if migrations:
            entry["_migration_files"] = {m["file"] for m in migrations}
            entry["migrations"] = len(entry["_migration_files"])
        if _former(entry, migrations, snapshot_dirs, renamed_into.get(entry["table"].lower(), [])):
            del tables[key]
            former.append(_fate(entry, migrations))
            if all(_covered(snapshot_dirs, m["file"]) for m in migrations):
                snapshot_judged.add(id(former[-1]))
        elif not entry["sources"] and migrations and not any(is_snapshot_file(m["file"]) for m in migrations):
            # Only migrations name it (a snapshot's table is current) and none renames or drops it: may be live (a
            # table the code reaches through a name made at run time, `FROM "{_table}"`), so listed, but said.
            entry["only_in_migrations"] = True
    _renamed_from(tables, former)
    items = sorted(tables.values(), key=lambda t: (t["table"].lower(), (t["schema"] or "").lower()))
    former.sort(key=lambda t: (t["table"].lower(), (t["schema"] or "").lower()))
    if table_filter:
        needle = table_filter.strip().lower()
        items = [t for t in items if needle in t["table"].lower() or any(needle in d.lower() for d in t["dbsets"])
                 or any(needle in _short(e).lower() for e in t["entities"])
                 or (t["schema"] and needle in f"{t['schema']}.{t['table']}".lower())]
        former = [t for t in former if needle in t["table"].lower()
                  or (t["schema"] and needle in f"{t['schema']}.{t['table']}".lower())]
    folders = _migration_folders([*items, *former])
    return TableListing(items, len(items), _by_file(items), [{"tables_in_index": len(tables)}], former, folders,
                        any(id(t) in snapshot_judged for t in former))


def _migration_folders(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """{folder, files}: the folders holding the entries' migration files (designers and snapshots included), with how
    many of those files each holds. Pops each entry's `_migration_files`."""
    files: dict[str, set[str]] = {}
    for entry in entries:
        for path in entry.pop("_migration_files", ()):
            files.setdefault(path.replace("\\", "/").rpartition("/")[0], set()).add(path)
    return [{"folder": folder, "files": len(paths)} for folder, paths in sorted(files.items())]


def _fate(entry: dict[str, Any], migrations: list[dict[str, Any]]) -> dict[str, Any]:
    """A former table: the last RenameTable (`renamed_to`) or DropTable (`dropped`) of it in a migration's Up, `by`
    where; neither when its migrations only stopped mapping it."""
    out: dict[str, Any] = {k: entry[k] for k in ("table", "schema", "entities", "file", "line", "migrations",
                                                  "_migration_files") if k in entry}
    operations = sorted((m for m in migrations if m.get("source") in MIGRATION_OPERATIONS),
                        key=lambda m: (_migration_order(m["file"]), m["line"]))
    if operations:
        last = operations[-1]
        if last["source"] == "RenameTable":
            out["renamed_to"] = last["renamed_to"]
            if last.get("new_schema"):
                out["renamed_to_schema"] = last["new_schema"]
        else:
            out["dropped"] = True
        out["by"] = {"file": last["file"], "line": last["line"]}
    return out


def _renamed_from(tables: dict[str, dict[str, Any]], former: list[dict[str, Any]]) -> None:
    """A current table a migration renamed another to says its former names (`renamed_from`)."""
    for old in former:
        if not old.get("renamed_to"):
            continue
        for entry in tables.values():
            if entry["table"].lower() == old["renamed_to"].lower() and (
                    not old.get("renamed_to_schema") or (entry["schema"] or "").lower()
                    == old["renamed_to_schema"].lower()):
                entry.setdefault("renamed_from", []).append(old["table"])


def inherited_tables_read(conn: sqlite3.Connection, external: Iterable[str],
                          nodes: Sequence[Mapping[str, Any]]) -> list[tuple[str, str | None]]:
    """(table, the first node reading it) for the external DbSets among `external` that a context inherits and whose
    entity is mapped: Kavita's `_context.Users` reads Identity's `IdentityUserContext<...>.Users`, table AspNetUsers."""
    inherited = [f for fs in facts_of_symbols(conn, list(external)).values() for f in fs
                 if f["kind"] == "DbTable" and f.get("inherited") == "package"]
    if not inherited:
        return []
    ids = [n["symbol_id"] for n in nodes if n.get("symbol_id")]
    keys = {k: i for i in ids if (k := key_of(conn, i)) is not None}
    out = []
    for fact in inherited:
        readers = {r[0] for r in conn.execute("SELECT DISTINCT from_key FROM refs WHERE target_key = ?",
                                              (key_of(conn, fact["symbol_id"]),))}
        via = next((i for k, i in keys.items() if k in readers), None)
        out.append((fact["key"], via))
    return out


def _hosts_calling(conn: sqlite3.Connection, member: str | None, hosts: set[str | None],
                   loaders: dict[str | None, set[str | None]], projects: list[tuple[int, str, str]]) -> set[str | None]:
    """The hosts whose code reaches a library member (its callers, 6 levels up): eShop's ServiceDefaults reads
    `Identity` in AddDefaultAuthentication, which few of its nine hosts call, and the key was "undefined" in six
    that never do. Empty when no host code is seen to call it (then every host loading the library, as before)."""
    if not member:
        return set()

    def of_places(places: Iterable[str | None]) -> set[str | None]:
        # Hosts only: a library's call site counts through the callers walked above it, not for every host
        # loading that library.
        return {project for project in (project_of_path(projects, file) for file in places) if project in hosts}

    def walk() -> set[str | None]:
        # By the call sites' files: every top-level Program's `<Main>$` is one id, its call sites are not.
        found = of_places(e.get("file") for e in graph.callers(conn, member, 6, 200).edges)
        if found:
            return found
        # Called by the framework (an OpenAPI document transformer's TransformAsync): the code naming its type
        # (`AddDocumentTransformer<T>()`, `new T()`) and whatever calls that code.
        users = conn.execute(
            "SELECT DISTINCT r.from_key, f.path, r.project_id FROM refs r JOIN files f ON f.id = r.file_id"
            " JOIN symbols s ON s.symbol_id = ? JOIN ids i ON i.symbol_id = s.container_id WHERE r.target_key = i.key"
            " AND r.from_key IS NOT NULL", (member,)).fetchall()
        found = of_places(path for _, path, _ in users)
        names = ids_of(conn, [k for k, _, _ in users])
        for key, project in sorted({(k, p) for k, _, p in users}):  # a shared id: the user's own declaration
            walked = graph.callers(conn, names[key], 5, 200, root_projects=[project])
            found |= of_places(e.get("file") for e in walked.edges)
        return found
    return set(memo(conn, f"hosts_calling:{member}", walk))


def _table_schemas(facts: list[dict[str, Any]]) -> dict[str, dict[str, set[str]]]:
    """Table name (lowercase) -> each schema it is named under ("" for none) -> the entities mapped there:
    [Table]/ToTable outside migrations, the DbSets (under the table their entity is mapped to, else their
    conventional one), and raw SQL's `[schema].[table]` (no entity)."""
    out: dict[str, dict[str, set[str]]] = {}
    for fact in facts:
        if _from_migrations(fact):
            continue
        if fact.get("entity") and fact.get("source") in ("Table", "ToTable", "DbSet"):
            out.setdefault(fact["key"].lower(), {}).setdefault(str(fact.get("schema") or ""), set()).add(
                str(fact["entity"]))
        elif fact.get("source") == "Sql" and fact.get("schema"):
            out.setdefault(fact["key"].lower(), {}).setdefault(str(fact["schema"]), set())
    return out


def _schema_of(fact: dict[str, Any], schemas: dict[str, dict[str, set[str]]]) -> str | None:
    """The schema that keeps a table fact apart, or None to group it by name alone. A name is split by schema when
    the model maps entities to it under two schemas (modular-monolith's `meetings.Members` and
    `administration.Members` were one row), or when the code names it under two schemas (its raw SQL's
    `[meetings].[InboxMessages]` and `[payments].[InboxMessages]`, one row of the first schema found); otherwise
    `orders` and `dbo.orders` are one table, as before."""
    options = schemas.get(fact["key"].lower(), {})
    if len([s for s, entities in options.items() if entities]) < 2 and len([s for s in options if s]) < 2:
        return None
    if fact.get("schema"):
        return str(fact["schema"])
    entity = fact.get("entity")
    return next((schema for schema, entities in options.items() if entity in entities), "") or None if entity else None


def _relabel(conn: sqlite3.Connection, facts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A DbSet fact names the conventional table; when [Table]/ToTable maps its entity elsewhere, the
    table is that one (the DbSet name stays in `dbset`)."""
    if not any(f["kind"] == "DbTable" and f.get("source") == "DbSet" for f in facts):
        return facts
    renames = table_renames(conn)
    for f in facts:
        if f["kind"] == "DbTable" and f.get("source") == "DbSet" and f.get("entity") in renames:
            f["dbset"], f["key"] = f["key"], renames[f["entity"]]
    # A DbSet inherited from a package's context names no table unless its entity is mapped (db_tables).
    return [f for f in facts if not (f["kind"] == "DbTable" and f.get("inherited") == "package" and "dbset" not in f)]


def facts_of_symbol(conn: sqlite3.Connection, symbol_id: str, project_id: int | None = None) -> list[dict[str, Any]]:
    """The facts of one symbol; of one project's declaration when given (`Program.<Main>$` is declared
    by every top-level-statement project under the same id)."""
    where = "fa.symbol_id = ?" + INTERNAL_FACTS
    args: list[object] = [symbol_id]
    if project_id is not None:
        where += " AND fa.project_id = ?"
        args.append(project_id)
    rows = conn.execute(f"SELECT {FACT_COLUMNS} FROM {FACT_FROM} WHERE {where} ORDER BY fa.line, fa.col",
                        args).fetchall()
    return _relabel(conn, [_fact(r) for r in rows])


def facts_of_symbols(conn: sqlite3.Connection, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """graph_trace_feature's facts per node: a GeneratedUse is said by the trace's `Generated` edge instead."""
    out: dict[str, list[dict[str, Any]]] = {}
    for row in in_chunks(conn, f"SELECT {FACT_COLUMNS} FROM {FACT_FROM} WHERE fa.symbol_id IN ({{marks}})"
                               f"{INTERNAL_FACTS} AND fa.kind != 'GeneratedUse' ORDER BY fa.line", ids):
        fact = _fact(row)
        out.setdefault(fact["symbol_id"], []).append(fact)
    return {k: _relabel(conn, v) for k, v in out.items()}


_QUERY = re.compile(r"[?#](?![^{}]*\}).*$")
_ROUTE = re.compile(r"^\s*([A-Za-z]+)\s+(/\S*)\s*$")
_HANDLER_ARGUMENT = re.compile(r"[?&]handler=([^&#]*)", re.I)


class _Template(NamedTuple):
    """A route template as a regex over concrete paths; group `p{i}` holds the value of `parameters[i]`: its name
    and inline constraints (`{id:int:min(1)}`: `("id", (("int", ""), ("min", "1")))`)."""
    regex: re.Pattern[str]
    parameters: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


@functools.lru_cache(maxsize=8192)
def _template_regex(template: str, required: int | None = None) -> _Template:
    """A route template as a regex over concrete paths: `{x}` one segment, `{x?}` an optional one,
    `{*x}`/`{**x}` the rest of the path. A URL may leave out the trailing segments that are optional or have a
    default (`posts/{page=1}`: `/posts`), and with `required` (a conventional route's `shortest`, in segments) every
    segment after the first `required` ones (`/Home/Index/{id?}` from `/`: `/`, `/Home`, `/Home/Index`,
    `/Home/Index/5`)."""
    segments = [s for s in template.strip("/").split("/") if s]
    tail = len(segments)
    while tail > 0 and (_left_out(segments[tail - 1]) is not None or (required is not None and tail > required)):
        tail -= 1
    parameters: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    body = "".join(_segment_regex(s, parameters) for s in segments[:tail])
    for segment in segments[tail:]:  # each may be left out with all after it: nested
        body += "(?:" + _segment_regex(segment, parameters, trailing=True)
    return _Template(re.compile(f"^{body}{')?' * (len(segments) - tail)}/?$", re.I), tuple(parameters))


def _segment_regex(segment: str, parameters: list[tuple[str, tuple[tuple[str, str], ...]]],
                   trailing: bool = False) -> str:
    """One segment of a template, `/` included (`{x?}` before a required segment may be missing on its own)."""
    if re.fullmatch(r"\{\*[^}]*\}", segment):
        return "/.*" if trailing else "(?:/.*)?"
    if re.fullmatch(r"\{[^}]*\?\}", segment) and not trailing:
        return f"(?:/{_parameter_regex(segment[1:-1], parameters)})?"
    parts = re.split(r"(\{[^}]*\})", segment)
    return "/" + "".join(_parameter_regex(p[1:-1], parameters) if p.startswith("{") else re.escape(p) for p in parts)


_CONSTRAINT = re.compile(r":(\w+)(?:\(([^)]*)\))?")


def _parameter_regex(inner: str, parameters: list[tuple[str, tuple[tuple[str, str], ...]]]) -> str:
    """A parameter's capture group; its name and constraints go to `parameters` (`{id:int?}`, `{page=1}`)."""
    name, _, constraints = inner.lstrip("*").split("=", 1)[0].rstrip("?").partition(":")
    parameters.append((name, tuple(_CONSTRAINT.findall(":" + constraints)) if constraints else ()))
    return f"(?P<p{len(parameters) - 1}>[^/]+)"


def _route_values(template: _Template, path: str) -> dict[str, str] | None:
    """The values a concrete path gives a template's parameters (lowercase names; those left out, or given as the
    template's own `{x}`, absent); None when the path does not match."""
    found = template.regex.match(path)
    if not found:
        return None
    values = {}
    for at, (name, _) in enumerate(template.parameters):
        value = found.group(f"p{at}")
        if value is not None and not value.startswith("{"):
            values[name.lower()] = value
    return values


def _constraints_met(template: _Template, path: str) -> bool:
    """Whether the path's values meet the template's inline constraints (`{id:int}` takes `5`, not `abc`): ASP.NET
    matches no route whose constraint fails."""
    values = _route_values(template, path)
    return values is not None and all(
        _meets(values[name.lower()], constraint.lower(), argument) for name, constraints in template.parameters
        if name.lower() in values for constraint, argument in constraints)


_INTEGER = re.compile(r"-?\d+")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?", re.I)
_GUID = re.compile(r"\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?", re.I)


def _meets(value: str, constraint: str, argument: str) -> bool:
    """One inline constraint of ASP.NET routing; those not known here (datetime, regex, the app's own) hold."""
    bounds = [int(b) for b in argument.split(",") if _INTEGER.fullmatch(b.strip())]
    if constraint in ("int", "long", "min", "max", "range"):
        if not _INTEGER.fullmatch(value):
            return False
        number, limit = int(value), 2 ** 31 if constraint == "int" else 2 ** 63
        return -limit <= number < limit and (not bounds or (
            number >= bounds[0] if constraint == "min" else number <= bounds[0] if constraint == "max"
            else len(bounds) < 2 or bounds[0] <= number <= bounds[1]))
    if constraint in ("length", "minlength", "maxlength") and bounds:
        size = len(value)
        return (size >= bounds[0] if constraint == "minlength" else size <= bounds[0] if constraint == "maxlength"
                else size == bounds[0] if len(bounds) == 1 else bounds[0] <= size <= bounds[1])
    if constraint == "bool":
        return value.lower() in ("true", "false")
    if constraint == "alpha":
        return value.isascii() and value.isalpha()
    if constraint == "guid":
        return _GUID.fullmatch(value) is not None
    if constraint in ("decimal", "double", "float"):
        return _NUMBER.fullmatch(value) is not None
    return True


def route_handlers(conn: sqlite3.Connection, entry: str) -> list[dict[str, Any]] | None:
    """Route facts matching `GET /api/orders/{id}` (the template) or `GET /api/orders/5` (a concrete
    path); None when `entry` is not shaped like a route."""
    match = _ROUTE.match(entry)
    if not match:
        return None
    # A URL's query string and fragment are no part of the route (`GET /api/want-to-read?seriesId=3`), but for the
    # `handler` a Razor page reads from it. (Not a `?` inside braces: `{id?}` is an optional parameter of a template.)
    query = _QUERY.search(match.group(2))
    method, path = match.group(1).upper(), _QUERY.sub("", match.group(2)) or "/"
    asked = _HANDLER_ARGUMENT.search(query.group(0)) if query else None
    # tests_find asks this once per HTTP call of the tests (879 in bitwarden/server): the listing is built once.
    listed = memo(conn, "routes_listed", lambda: endpoints(conn, None, None).items)
    pages = memo(conn, "razor_page_templates", lambda: _page_templates(listed))
    routes = [r for r in listed if r["method"] in (method, "ANY")]
    found = _page_handlers(_matching_routes(routes, path, pages), pages, path,
                           urllib.parse.unquote(asked.group(1)) if asked else None)
    return [dict(r) for r in found]


def nearest_routes(conn: sqlite3.Connection, entry: str, count: int = 3, most: int = 10) -> list[dict[str, Any]]:
    """The endpoints of the `count` routes (`METHOD route`) that read most like `entry` (a typo:
    `/api/Reader/mark-reed`), each route with every handler serving it, once (CAP's four sample apps serving `ANY
    /without/transaction` were three identical candidates): at most `most`."""
    wanted = entry.strip().lower()
    listed = memo(conn, "routes_listed", lambda: endpoints(conn, None, None).items)
    ranked = sorted(listed, key=lambda r: -difflib.SequenceMatcher(
        None, wanted, f"{r['method']} {r['route']}".lower()).ratio())
    routes: list[tuple[str, str]] = []
    seen: set[tuple[str, str, str | None]] = set()
    out: list[dict[str, Any]] = []
    for route in ranked:
        text = (route["method"], route["route"])
        if text not in routes:
            if len(routes) == count:
                break  # one route's endpoints rank alike: they came together
            routes.append(text)
        if (*text, route.get("handler")) not in seen and len(out) < most:
            seen.add((*text, route.get("handler")))
            out.append(route)
    return out


def page_path(file: str) -> tuple[str, str | None, str] | None:
    """(app folder, area, page path) of a Razor page's file, the path being the name `asp-page` gives the page:
    `src/Web/Pages/Students/Index.cshtml` is ("src/Web", None, "/Students/Index"), `Areas/Admin/Pages/Edit.cshtml`
    ("", "Admin", "/Edit"); None outside a `Pages` folder."""
    parts = file.removesuffix(".cshtml").split("/")
    at = max((i for i, part in enumerate(parts[:-1]) if part == "Pages"), default=None)
    if at is None:
        return None
    area = parts[at - 1] if at >= 2 and parts[at - 2] == "Areas" else None
    return "/".join(parts[: at - 2] if area else parts[:at]), area, "/" + "/".join(parts[at + 1:])


def _page_templates(listed: list[dict[str, Any]]) -> dict[str, str]:
    """Razor page file -> its route template, the one its unnamed GET endpoint is listed at (every page has one:
    OnGet, or the page rendering): a named handler's endpoint (`/X/CreateEdit/Edit`, `/X/Details?handler=History`)
    is the page's route with the handler filled in."""
    return {str(r["file"]): str(r["route"]) for r in listed
            if r["source"] == "razor_page" and r["method"] == "GET" and not r.get("page_handler")}


def _route_forms(route: dict[str, Any], pages: dict[str, str]) -> list[str]:
    """The templates a concrete path is matched against: a route's own; a Razor page's template (which of its
    handlers runs is chosen after, _page_handlers), and an Index page's again under `/Index` (Razor Pages serves
    Pages/Courses/Index at `/Courses` and `/Courses/Index`)."""
    if route["source"] != "razor_page":
        return [route["route"]]
    template = pages.get(route["file"], route["route"])
    found = page_path(route["file"] or "")
    if found is None or not found[2].endswith("/Index"):
        return [template]
    prefix = (f"/{found[1]}" if found[1] else "") + found[2].removesuffix("/Index")
    # An absolute `@page "/x"` replaces the path (a root Index page's `@page "x"` and `"/x"` read alike here).
    if template != prefix and not template.startswith(prefix + "/"):
        return [template]
    return [template, (prefix + "/Index" + template[len(prefix):]).rstrip("/")]


def _matching_routes(routes: list[dict[str, Any]], path: str, pages: dict[str, str]) -> list[dict[str, Any]]:
    wanted = path.rstrip("/") or "/"
    forms = [(r, _route_forms(r, pages)) for r in routes]
    exact = [r for r, fs in forms if any((f.rstrip("/") or "/") == wanted for f in fs)]
    if exact:
        return exact
    folded = [r for r, fs in forms if any((f.rstrip("/") or "/").lower() == wanted.lower() for f in fs)]
    if folded:
        return folded
    # A concrete path: the most specific templates win (most literal segments among those the path reaches), as
    # ASP.NET routing does. The fallback answers every path nothing else takes: a trace from it says nothing about
    # the path. A conventional route is reached from its `shortest` form on (`GET /` for HomeController.Index).
    # A conventional pattern no action fits (listed as written, no handler) matches no path.
    reached = _segment_count(wanted)
    matching: list[tuple[dict[str, Any], bool, int]] = []  # route, constraints met, literal segments
    for route, fs in forms:
        if route["source"] == "fallback" or route.get("no_action"):
            continue
        required = _segment_count(route["shortest"]) if route.get("shortest") is not None else None
        reaching = [f for f in fs if _template_regex(f, required).regex.match(path)]
        if reaching:
            matching.append(max(((route, _constraints_met(_template_regex(f, required), path),
                                  _literal_segments(f, reached)) for f in reaching), key=lambda m: (m[1], m[2])))
    # A constraint the path's value does not meet (`{id:int}` given `abc`) rules the route out, unless no other
    # route takes the path (then it is the nearest there is).
    if any(met for _, met, _ in matching):
        matching = [m for m in matching if m[1]]
    if not matching:
        return []
    best = max(literal for _, _, literal in matching)
    return [route for route, _, literal in matching if literal == best]


def _page_handlers(found: list[dict[str, Any]], pages: dict[str, str], path: str,
                   asked: str | None) -> list[dict[str, Any]]:
    """The handler a Razor page runs for the path among its matched endpoints of the verb: the one the route's
    `{handler}` value names, else the query string's `handler` (ASP.NET reads it when the path gives none:
    `GET /X/CreateEdit?handler=Edit` runs OnGetEditAsync), else the unnamed one (OnGet, OnPostAsync; also when no
    handler has the name). Names compare case-insensitively."""
    out: list[dict[str, Any]] = []
    done: set[str] = set()
    for route in found:
        if route["source"] != "razor_page":
            out.append(route)
            continue
        if route["file"] in done:
            continue
        done.add(route["file"])
        of_page = [r for r in found if r["source"] == "razor_page" and r["file"] == route["file"]]
        values = [_route_values(_template_regex(f), path) for f in _route_forms(route, pages)]
        name = next((v["handler"] for v in values if v and v.get("handler")), None) or asked
        named = [r for r in of_page if name and str(r.get("page_handler") or "").lower() == name.lower()]
        out.extend(named or [r for r in of_page if not r.get("page_handler")])
    return out


def _segment_count(path: str) -> int:
    return len([s for s in path.strip("/").split("/") if s])


def _literal_segments(template: str, reached: int) -> int:
    """The literal segments among a template's first `reached` ones (those a concrete path of that many spans)."""
    segments = [s for s in template.strip("/").split("/") if s][:reached]
    return sum(1 for segment in segments if not segment.startswith("{"))


class Registered(NamedTuple):
    """An implementation DI makes for a service, and the project registering it (only a process loading that
    project runs it). A type a factory registration builds inside the one it registers (`sp => new
    CustomBackgroundJobFactory(new BackgroundJobFactory(...))`, Hangfire's sample: a decorator made by hand) runs too,
    `wrapped_by` the registered one."""
    implementation_id: str
    project_id: int | None
    wrapped_by: str | None = None


def di_implementations(conn: sqlite3.Connection) -> dict[str, list[Registered]]:
    """Service type id -> the implementations registered in DI (when the bridge bound them)."""
    return {k: list(v) for k, v in memo(conn, "di", lambda: _di_implementations(conn)).items()}


def _di_implementations(conn: sqlite3.Connection) -> dict[str, list[Registered]]:
    out: dict[str, list[Registered]] = {}
    unloaded = unregistered_modules(conn)
    for symbol_id, raw, project in conn.execute(
            "SELECT fa.symbol_id, fa.detail, fa.project_id FROM facts fa LEFT JOIN files f ON f.id = fa.file_id"
            " WHERE fa.kind = 'DiRegistration' ORDER BY f.path, fa.line, fa.col, fa.id"):
        fact = _detail(raw)
        service, impl = fact.get("service_id"), fact.get("implementation_id")
        # A decorator wraps what DI makes (request_wrappers); it is not the implementation chosen. A module no one
        # registers registers nothing.
        if not service or not impl or fact.get("form") == "decorator" or symbol_id in unloaded:
            continue
        made = [Registered(str(impl), project)]
        made.extend(Registered(str(inner), project, str(impl)) for inner in fact.get("constructs") or ())
        registered = out.setdefault(str(service), [])
        registered.extend(r for r in made if r not in registered)
    return out


_MODULE_LOAD = re.compile(r"^M:.+\.Load\(Autofac\.ContainerBuilder\)$")


def unregistered_modules(conn: sqlite3.Connection) -> set[str]:
    """The Load of each Autofac module holding registrations that no `RegisterModule` registers (nor an assembly
    scan of modules, `RegisterAssemblyModules`, which could)."""
    def compute() -> set[str]:
        facts = facts_of_kind(conn, "DiRegistration")
        loads = {str(f["symbol_id"]) for f in facts if f.get("container") == "autofac"
                 and _MODULE_LOAD.match(str(f["symbol_id"] or ""))}
        if not loads or conn.execute("SELECT 1 FROM refs WHERE target_name = 'RegisterAssemblyModules'"
                                     " LIMIT 1").fetchone():
            return set()
        return loads - {str(f.get("target")) for f in facts if f.get("form") == "module"}
    return set(memo(conn, "unregistered_modules", compute))


_PIPELINE_BEHAVIOR = re.compile(r"[.:]IPipelineBehavior`2$")  # MediatR's, or a look-alike of any namespace


def request_wrappers(conn: sqlite3.Connection) -> list[RequestWrapper]:
    """What DI wraps around a mediator request's handler: MediatR pipeline behaviors (`IPipelineBehavior<,>`
    registrations) and decorators of a handler interface (Autofac's RegisterGenericDecorator)."""
    def compute() -> list[RequestWrapper]:
        out: list[RequestWrapper] = []
        for fact in facts_of_kind(conn, "DiRegistration"):
            service, impl = fact.get("service_id"), fact.get("implementation_id")
            if not service or not impl:
                continue
            if _PIPELINE_BEHAVIOR.search(str(service)):
                wrapper = RequestWrapper("Behavior", str(service), str(impl))
            elif fact.get("form") == "decorator":
                wrapper = RequestWrapper("Decorator", str(service), str(impl))
            else:
                continue
            if wrapper not in out:
                out.append(wrapper)
        return out
    return list(memo(conn, "request_wrappers", compute))


# --- Lists of the other facts: DI registrations, the middleware pipeline, log templates, exceptions ---


def _scoped_facts(conn: sqlite3.Connection, kind: str, project: str | None, file: str | None) -> list[dict[str, Any]]:
    """Facts of one kind with their project name, narrowed to a project (by name, case-insensitive)
    and a file (a path, or a path fragment)."""
    return _narrowed(_config_facts(conn, kind, project_folders(conn)), project, file)


def _narrowed(items: list[dict[str, Any]], project: str | None, file: str | None) -> list[dict[str, Any]]:
    """Items of one project (by name, case-insensitive) and file (a path, or a path fragment)."""
    if project:
        wanted = project.strip().lower()
        items = [i for i in items if (i["project"] or "").lower() == wanted]
    if file:
        needle = file.strip().replace("\\", "/").lower()
        items = [i for i in items if needle in (i["file"] or "").lower()]
    return items


def _listing(items: list[dict[str, Any]], count_by: str) -> Listing:
    counts: dict[str, int] = {}
    for item in items:
        value = str(item.get(count_by) or "unknown")
        counts[value] = counts.get(value, 0) + 1
    return Listing(items, len(items), _by_file(items),
                   [{count_by: k, "count": c} for k, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))])


def _keep(fact: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {k: fact[k] for k in fields if fact.get(k) is not None}


_GENERIC_EXTENSION_FIELDS = ("service_type_parameter", "implementation_type_parameter", "key_type_parameter",
                             "type_args", "type_arg_ids")


def _type_arguments_put_in(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A call of the solution's own generic extension (fullstackhero's `AddHeroDbContext<CatalogDbContext>()`,
    whose body calls `AddDbContext<TContext>()`) is what its body registers with its type arguments put in for the
    body's type parameters: `CatalogDbContext`, Scoped, `via: AddHeroDbContext`, `through` the body's call, at the
    call site (it was a row naming only the extension, and the body's `TContext`)."""
    by_member: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        by_member.setdefault(str(item["registered_in"]), []).append(item)
    out: list[dict[str, Any]] = []
    for item in items:
        args, ids = item.get("type_args") or [], item.get("type_arg_ids") or []
        body = [r for r in by_member.get(str(item.get("target") or ""), [])
                if "service_type_parameter" in r or "implementation_type_parameter" in r]
        if not args or not body:
            out.append(item)
            continue
        for registration in body:
            made = {**item, "lifetime": registration.get("lifetime"), "through": registration.get("via")}
            for role in ("service", "implementation"):
                position = registration.get(f"{role}_type_parameter")
                if isinstance(position, int) and position < len(args):
                    made[role], made[f"{role}_id"] = args[position], ids[position] if position < len(ids) else None
                else:
                    made[role], made[f"{role}_id"] = registration.get(role), registration.get(f"{role}_id")
            position = registration.get("key_type_parameter")
            made["service_key"] = f"typeof({args[position]})" if isinstance(position, int) and position < len(args) \
                else registration.get("service_key")
            out.append({k: v for k, v in made.items() if v is not None})
    for item in out:
        for field_name in _GENERIC_EXTENSION_FIELDS:
            item.pop(field_name, None)
    return out


def _generic_helper_calls(conn: sqlite3.Connection, items: list[dict[str, Any]], project: str | None,
                          file: str | None) -> list[dict[str, Any]]:
    """Calls of the solution's own generic helper whose body registers its type parameter, when the call is no `Add*`
    extension the bridge records (Hangfire's `services.TryAddSingletonChecked<IBackgroundJobClient>(...)` and
    `TryAddSingletonChecked(_ => JobStorage.Current)`, whose body is `TryAddSingleton<T>(sp => f(sp))`): one
    registration per call with its type argument, written or inferred (the bridge's GenericCall facts), put in. The
    implementation a factory handed at the call makes is not recorded: it is left out unless the body names it."""
    bodies: dict[str, list[dict[str, Any]]] = {}
    covered: set[tuple[str, str, int]] = set()
    for fact in facts_of_kind(conn, "DiRegistration"):
        if "service_type_parameter" in fact or "implementation_type_parameter" in fact:
            bodies.setdefault(str(fact["symbol_id"]), []).append(fact)
        if fact.get("form") == "extension" and fact.get("target"):
            covered.add((str(fact["target"]), str(fact["file"]), int(fact["line"])))  # _type_arguments_put_in's
    if not bodies:
        return []
    names = {pid: name for pid, name, _ in project_folders(conn)}
    rows = in_chunks(conn, f"SELECT {FACT_COLUMNS}, fa.project_id FROM {FACT_FROM} WHERE fa.kind = 'GenericCall'"
                           " AND fa.key IN ({marks})", sorted(bodies))
    calls = []
    for row in rows:
        call = _fact(row[:-1])
        call["project"] = names.get(row[-1])
        if (str(call["key"]), str(call["file"]), int(call["line"])) not in covered:
            calls.append(call)
    out: list[dict[str, Any]] = []
    for call in _narrowed(calls, project, file):
        ids = [str(i) for i in call.get("method_type_arguments") or []]
        for body in bodies[str(call["key"])]:
            made: dict[str, Any] = {"lifetime": body.get("lifetime"), "form": "extension",
                                    "via": name_from_doc_id(str(call["key"])), "through": body.get("via"),
                                    "try": body.get("try"), "target": call["key"]}
            for role in ("service", "implementation"):
                position = body.get(f"{role}_type_parameter")
                if isinstance(position, int):
                    if position < len(ids):
                        made[role], made[f"{role}_id"] = _type_name(ids[position]), ids[position]
                elif role == "implementation":
                    made[role], made[f"{role}_id"] = body.get(role), body.get(f"{role}_id")
            if "service" not in made:
                continue  # the type argument did not bind
            out.append({"service": made.pop("service"), **{k: v for k, v in made.items() if v is not None},
                        "registered_in": call["symbol_id"], "project": call["project"], "file": call["file"],
                        "line": call["line"], "confidence": body["confidence"]})
    return out


def _type_name(type_id: str) -> str:
    """`T:Hangfire.JobStorage` -> `JobStorage`; a constructed `T:Ns.Box{Ns.Item}` -> `Box`."""
    return name_from_doc_id(type_id.split("{", 1)[0])


def di_registrations(conn: sqlite3.Connection, service_filter: str | None, lifetime: str | None,
                     project: str | None, file: str | None) -> Listing:
    """Every registration in source order: lifetime calls (AddScoped<I, T>...) and Add* extensions."""
    items = []
    unloaded = unregistered_modules(conn)
    for fact in _scoped_facts(conn, "DiRegistration", project, file):
        service_key = fact["key"] if fact["key"] != fact["fact_key"] else None
        items.append({"service": fact["fact_key"], **_keep(fact, (
            "lifetime", "implementation", "form", "forwarded", "via", "try", "target", "container", "service_id",
            "implementation_id", "as", "assignable_to", "assignable_to_id", *_GENERIC_EXTENSION_FIELDS)),
            **({"service_key": service_key} if service_key is not None else {}),
            **({"module_not_registered": True} if fact["symbol_id"] in unloaded else {}),
            "registered_in": fact["symbol_id"], "project": fact["project"], "file": fact["file"], "line": fact["line"],
            "confidence": fact["confidence"]})
    items = _type_arguments_put_in(items)
    if helper_calls := _generic_helper_calls(conn, items, project, file):
        items = sorted([*items, *helper_calls], key=lambda i: (i["file"] or "", i["line"] or 0))  # stable: source order
    if service_filter:
        needle = service_filter.strip().lower()
        items = [i for i in items
                 if needle in i["service"].lower() or needle in (i.get("implementation") or "").lower()
                 or needle in (i.get("assignable_to") or "").lower()]
    if lifetime:
        items = [i for i in items if (i.get("lifetime") or "").lower() == lifetime.strip().lower()]
    return _listing(items, "lifetime")


# Registration calls of DI containers (Microsoft.Extensions.DependencyInjection, Scrutor, Autofac, DryIoc, Simple
# Injector, Castle Windsor). One that did not bind (its package did not restore: Radarr's DryIoc) registers what the
# index cannot read.
_REGISTRATION_CALLS = frozenset({
    "AddSingleton", "AddScoped", "AddTransient", "TryAddSingleton", "TryAddScoped", "TryAddTransient",
    "TryAddEnumerable", "AddKeyedSingleton", "AddKeyedScoped", "AddKeyedTransient",
    "RegisterType", "RegisterGeneric", "RegisterInstance", "RegisterAssemblyTypes", "RegisterAssemblyModules",
    "RegisterModule", "RegisterDecorator", "RegisterMany", "RegisterDelegate", "RegisterInstanceMany",
    "RegisterMapping", "RegisterSingleton", "RegisterInitializer"})
# Names other APIs use too (an event's Register, a route's Scan...): counted only on a receiver named like a container.
_REGISTRATION_CALLS_ON_CONTAINERS = frozenset({"Register", "Scan", "Install"})
_CONTAINER_RECEIVER = re.compile(r"(?i)(container|builder|services|registry|ioc|kernel)\W*$")


@dataclass(frozen=True)
class UnboundRegistration:
    name: str
    file: str
    line: int


def unbound_registrations(conn: sqlite3.Connection) -> list[UnboundRegistration]:
    """Calls named like a DI container's registrations that bound to nothing, in source order: what they register
    is missing from di_registrations. Not those read from their syntax all the same (a DiRegistration fact on the
    call's line: an unrestored MAUI app's `builder.Services.AddSingleton<RankingsPage>()` is listed, not "missing")."""
    names = sorted(_REGISTRATION_CALLS | _REGISTRATION_CALLS_ON_CONTAINERS)
    rows = in_chunks(conn, "SELECT r.target_name, r.receiver, f.path, r.line FROM refs r LEFT JOIN files f"
                           " ON f.id = r.file_id WHERE r.target_key IS NULL AND r.kind = 'Call' AND r.target_name IN"
                           " ({marks})", names)
    listed = {(str(path), int(line)) for path, line in conn.execute(
        "SELECT f.path, fa.line FROM facts fa JOIN files f ON f.id = fa.file_id WHERE fa.kind = 'DiRegistration'")}
    found = [UnboundRegistration(name, path or "", line) for name, receiver, path, line in rows
             if (name in _REGISTRATION_CALLS or _CONTAINER_RECEIVER.search(receiver or ""))
             and (path, line) not in listed]
    return sorted(found, key=lambda r: (r.file, r.line, r.name))


def unbound_registrations_warning(found: Sequence[UnboundRegistration]) -> str | None:
    """`12 calls named like DI registrations did not bind (RegisterMany x2, ...; first at F:L): ...`, or None."""
    if not found:
        return None
    counts: dict[str, int] = {}
    for r in found:
        counts[r.name] = counts.get(r.name, 0) + 1
    named = ", ".join(f"{name} x{count}" if count > 1 else name
                      for name, count in sorted(counts.items(), key=lambda c: (-c[1], c[0])))
    # The application's own wiring before its tests'.
    places = sorted(found, key=lambda r: (_TEST_PATH.search(r.file) is not None, r.file, r.line))[:2]
    calls = "call" if len(found) == 1 else "calls"
    return (f"{len(found)} {calls} named like DI registrations did not bind ({named}; at "
            + ", ".join(f"{r.file}:{r.line}" for r in places) + ("..." if len(found) > 2 else "")
            + "): what they register is not listed. A container package that did not restore is the usual cause "
              "(index_status says which).")


_TEST_PATH = re.compile(r"(?i)(^|[/.])tests?([/.]|$)")


def middleware(conn: sqlite3.Connection, project: str | None, file: str | None) -> Listing:
    """The pipeline as configured: per configuring member (Program's Main, Startup.Configure...), the
    Use*/Map/MapWhen calls in the order they run. A helper the member calls with the app (`ConfigureAuth(app)`)
    adds its steps where it is called (`called_from`), numbered in the caller's order, its own project's or one the
    caller's references (then the step's `project` is the app's); a step on a branch says its `condition`. Members
    are told apart per project (every top-level Program has the same id)."""
    steps: dict[Member, list[dict[str, Any]]] = {}
    for fact in _scoped_facts(conn, "Middleware", None, None):
        steps.setdefault((fact["project"], fact["symbol_id"]), []).append(
            {"order": fact.get("order"), "middleware": fact["key"], **_keep(fact, ("type", "condition")),
             "configured_in": fact["symbol_id"], "project": fact["project"], "file": fact["file"],
             "line": fact["line"], "confidence": fact["confidence"]})
    calls = _helper_calls(conn, steps)
    helpers = {helper for called in calls.values() for helper, _ in called}
    ordered = sorted(steps, key=lambda m: (steps[m][0]["file"] or "", str(m[1])))
    roots = [m for m in ordered if m not in helpers]
    reached = {m for root in roots for m in _reachable(root, calls)}
    for member in ordered:  # helpers only calling each other: the first of them starts a pipeline
        if member not in reached:
            roots.append(member)
            reached |= _reachable(member, calls)
    position = {m: i for i, m in enumerate(ordered)}
    items: list[dict[str, Any]] = []
    for member in sorted(roots, key=position.__getitem__):
        for order, step in enumerate(_pipeline(member, steps, calls, frozenset()), start=1):
            # The app's pipeline: a step a referenced project's helper adds is the app's (its file says where).
            items.append({**step, "order": order, "project": member[0]})
    return _listing(_narrowed(items, project, file), "project")


Member = tuple[str | None, str | None]  # (project, symbol id) of a member configuring middleware


Calls = dict[Member, list[tuple[Member, int]]]  # per configuring member: (a helper it calls, the call's line)


def _helper_calls(conn: sqlite3.Connection, steps: dict[Member, list[dict[str, Any]]]) -> Calls:
    """Per configuring member, the other configuring members it calls and the line of each call: its own project's,
    else one of a project it references (modular-monolith's `app.AddIdentityService()` in the API's Startup, declared
    in the UserAccess module, was a pipeline of its own). A call that is a step itself (`app.UseRequestTiming()`, an
    extension of the solution) is listed, and what it adds after it: SimplCommerce's `app.UseCustomizedIdentity()`
    was a pipeline of its own, its UseIdentityServer numbered 1 though it runs 17th."""
    out: Calls = {}
    if len(steps) < 2:
        return out
    names = {pid: name for pid, name, _ in project_folders(conn)}
    edges = projectrefs.project_references(conn)
    referenced: dict[int, set[str | None]] = {}  # project id -> the names of the projects it references
    declared: dict[str | None, list[str | None]] = {}  # helper id -> the projects declaring it, as steps has them
    for project, member in steps:
        declared.setdefault(member, []).append(project)
    for caller, helper, project_id, line in in_chunks(
            conn, "SELECT f.symbol_id, t.symbol_id, r.project_id, r.line FROM refs r JOIN ids f ON f.key = r.from_key"
                  " JOIN ids t ON t.key = r.target_key WHERE r.kind = 'Call' AND f.symbol_id IN ({marks})",
            sorted({str(m[1]) for m in steps})):
        project = names.get(project_id)
        source = (project, caller)
        if project_id not in referenced:
            referenced[project_id] = {names.get(p) for p in projectrefs.referenced(edges, [project_id])}
        owner = project if project in declared.get(helper, []) else next(
            (p for p in declared.get(helper, []) if p in referenced[project_id]), None)
        target = (owner, helper)
        if target in steps and target != source and source in steps:
            out.setdefault(source, []).append((target, int(line or 0)))
    return out


def _reachable(member: Member, calls: Calls) -> set[Member]:
    return {member} | projectrefs.referenced({m: [h for h, _ in called] for m, called in calls.items()}, [member])


def _pipeline(member: Member, steps: dict[Member, list[dict[str, Any]]], calls: Calls,
              seen: frozenset[Member]) -> list[dict[str, Any]]:
    """A member's steps with each helper's spliced in at its call, in line order (a helper calling back is cut)."""
    own: list[tuple[int, list[dict[str, Any]]]] = [(s["line"] or 0, [s]) for s in steps[member]]
    for helper, line in calls.get(member, []):
        if helper not in seen:
            spliced = _pipeline(helper, steps, calls, seen | {member})
            own.append((line, [{**s, "called_from": s.get("called_from", member[1])} for s in spliced]))
    return [s for _, group in sorted(own, key=lambda lg: lg[0]) for s in group]


def log_templates(conn: sqlite3.Connection, text_filter: str | None, level: str | None,
                  project: str | None, file: str | None) -> Listing:
    items = []
    for fact in _scoped_facts(conn, "Log", project, file):
        items.append({"template": fact["key"], **_keep(fact, ("level", "source", "via")),
                      "symbol_id": fact["symbol_id"],
                      "project": fact["project"], "file": fact["file"], "line": fact["line"],
                      "confidence": fact["confidence"]})
    if text_filter:
        needle = text_filter.strip().lower()
        items = [i for i in items if needle in i["template"].lower()]
    if level:
        items = [i for i in items if (i.get("level") or "").lower() == level.strip().lower()]
    return _listing(items, "level")


def retry_policies(conn: sqlite3.Connection, text_filter: str | None, project: str | None,
                   file: str | None) -> Listing:
    """Polly v7 policies (Retry, WaitAndRetry, CircuitBreaker), v8 pipelines and the HttpClient resilience
    handlers, in source order: how many retries, what they handle."""
    items = []
    for fact in _scoped_facts(conn, "RetryPolicy", project, file):
        items.append({"policy": fact["key"], **_keep(fact, ("retries", "handles", "ignores", "name")),
                      "configured_in": fact["symbol_id"], "project": fact["project"], "file": fact["file"],
                      "line": fact["line"], "confidence": fact["confidence"]})
    if text_filter:
        needle = text_filter.strip().lower()
        items = [i for i in items if needle in i["policy"].lower()
                 or any(needle in h.lower() for h in i.get("handles") or [])]
    return _listing(items, "policy")


def thrown_exceptions(conn: sqlite3.Connection, type_filter: str | None, project: str | None,
                      file: str | None) -> Listing:
    items = []
    for fact in _scoped_facts(conn, "Exception", project, file):
        items.append({"exception": fact["key"], **_keep(fact, ("form", "via", "inferred")),
                      "thrown_in": fact["symbol_id"],
                      "project": fact["project"], "file": fact["file"], "line": fact["line"],
                      "confidence": fact["confidence"]})
    if type_filter:
        needle = type_filter.strip().lower()
        items = [i for i in items if needle in i["exception"].lower()]
    return _listing(items, "exception")


def exceptions_through_calls(conn: sqlite3.Connection, symbol_id: str, depth: int) -> Listing:
    """What a member may throw: its own throws and those of the members it calls (solution code, to
    `depth` levels, interface calls into their DI-registered implementations, mediator requests into their
    handlers), each with the call path. A throw helper of the solution (a [DoesNotReturn] method, one whose
    body only throws: `throw_helper`, from its AlwaysThrows fact) is a callee like any other; a package
    helper (Guard.Against.Null...) is known by the exceptions its documentation names, recorded at the
    call site (`inferred`)."""
    from roslynmap.query import trace  # trace walks with graph, which this module also uses

    tree = trace.walk(conn, symbol_id, depth, 100, di_implementations(conn)).graph
    parent: dict[str, str] = {}
    for edge in tree.edges:
        parent.setdefault(edge["to"], edge["from"])
    ids = [symbol_id] + [n["symbol_id"] for n in tree.nodes if n.get("symbol_id")]
    facts = facts_of_symbols(conn, ids)
    items: list[dict[str, Any]] = []
    for member in ids:
        for fact in facts.get(member, []):
            if fact["kind"] != "Exception":
                continue
            path, at = [member], member
            while at in parent and at != symbol_id and len(path) <= depth:
                at = parent[at]
                path.insert(0, at)
            helper = next((f["key"] for f in facts.get(member, []) if f["kind"] == "AlwaysThrows"), None)
            items.append({"exception": fact["key"], **_keep(fact, ("form", "via", "inferred")), "thrown_in": member,
                          **({"throw_helper": helper} if helper else {}),
                          "path": path, "file": fact["file"], "line": fact["line"], "confidence": fact["confidence"]})
    return _listing(items, "exception")
